import Foundation
import ParleyCore
import ParleyFiles
import ParleyStore

/// GDPR requests (API.md §14.1, Sendbird's `/v3/privacy/gdpr`): registered by the admin, carried
/// out in the background as leased jobs (`GDPRJob`), listed and looked at while they run.
public struct GDPRService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let archives: SignedLinks
    let files: FileService

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, archives: SignedLinks, files: FileService) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.archives = archives
        self.files = files
    }

    public func register(_ caller: Caller, _ request: GDPRRequest) async throws -> GDPRRequestView {
        try caller.requireAdmin()
        let (now, jobID) = (clock.nowMillis, UUID().uuidString.lowercased())
        let params = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let job = try await store.transaction { repositories in
            let job = try repositories.jobs.insert(jobID: jobID, kind: GDPRRequest.jobKind, params: params, now: now)
            try repositories.auditLogs.append(
                NewAuditEntry(
                    .gdprRequested, actorID: nil, targetUserID: nil, details: ["action": request.action.rawValue, "request_id": jobID]))
            return job
        }
        return try view(job)
    }

    public func find(_ caller: Caller, _ requestID: String) async throws -> GDPRRequestView {
        try caller.requireAdmin()
        guard let job = try await store.read({ try $0.jobs.find(requestID, kind: GDPRRequest.jobKind) }) else {
            throw ParleyError.notFound("GDPR request \"\(requestID)\" not found.")
        }
        return try view(job)
    }

    /// Newest first.
    public func list(_ caller: Caller, limit: Int, pageToken: String?) async throws -> Page<GDPRRequestView> {
        try caller.requireAdmin()
        return try await JobListing.page(
            store, pageTokens, kind: GDPRRequest.jobKind, scope: "gdpr-requests", limit: limit, pageToken: pageToken, view)
    }

    /// Cancels a request no instance has started; one under way or over cannot be (400).
    public func cancel(_ caller: Caller, _ requestID: String) async throws {
        _ = try await find(caller, requestID)
        let now = clock.nowMillis
        guard try await store.transaction({ try $0.jobs.cancel(requestID, kind: GDPRRequest.jobKind, now: now) }) else {
            throw ParleyError.invalidValue("request_id", "the request is already under way or over")
        }
    }

    /// `GET /v3/privacy/gdpr/{request_id}/archive`: the access archive, for the holder of its
    /// link (checked here: no API token needed) until it expires; 404 otherwise.
    public func archive(_ requestID: String, expiresAt: Int64, signature: String) async throws -> FileDownload {
        guard archives.verify(path: Self.archivePath(requestID), expiresAt: expiresAt, signature: signature, now: clock.nowMillis),
            let job = try await store.read({ try $0.jobs.find(requestID, kind: GDPRRequest.jobKind) }),
            let shown = try? view(job), shown.archive?.expiresAt == expiresAt,
            let fileID = try job.result.map({ try JSONDecoder().decode(GDPRResult.self, from: Data($0.utf8)) })?.fileID
        else { throw ParleyError.notFound("No such archive, or its link expired.") }
        return try await files.openGenerated(fileID, name: "gdpr-\(shown.request.userIDs[0]).jsonl", contentType: "application/x-ndjson")
    }

    /// The archive's route with the request's id in it (percent-encoded as a path segment).
    static func archivePath(_ requestID: String) -> String {
        "/v3/privacy/gdpr/\(JobListing.segment(requestID))/archive"
    }

    private func view(_ job: Job) throws -> GDPRRequestView {
        let request = try JSONDecoder().decode(GDPRRequest.self, from: Data(job.params.utf8))
        let result = try job.result.map { try JSONDecoder().decode(GDPRResult.self, from: Data($0.utf8)) }
        let archive = result?.expiresAt.map { archives.link(path: Self.archivePath(job.jobID), expiresAt: $0) }
        return GDPRRequestView(job: job, request: request, removed: result?.removed, archive: archive)
    }
}

/// What a finished GDPR job stored as its result.
struct GDPRResult: Codable {
    var removed: [String: Int]?
    /// The access archive's stored file, and when its link stops working (the sweeper removes
    /// it then: `FileRepository.known` reads these two names).
    var fileID: String?
    var expiresAt: Int64?
}
