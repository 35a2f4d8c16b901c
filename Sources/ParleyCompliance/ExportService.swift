import Foundation
import ParleyCore
import ParleyFiles
import ParleyStore

/// Data exports (API.md §14.2, Sendbird's `/v3/export/{data_type}`): registered by the admin,
/// written in the background (`ExportJob`), downloaded through a signed link until it expires.
public struct ExportService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let links: SignedLinks
    let files: FileService

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, links: SignedLinks, files: FileService) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.links = links
        self.files = files
    }

    /// An export as the API shows it: the request, its job's state, and once done its file.
    public struct View: Sendable {
        public let job: Job
        public let request: ExportRequest
        public let file: (url: String, expiresAt: Int64, records: Int)?
    }

    public func register(_ caller: Caller, _ request: ExportRequest) async throws -> View {
        try caller.requireAdmin()
        let (now, jobID) = (clock.nowMillis, UUID().uuidString.lowercased())
        let params = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        return try view(
            try await store.transaction {
                try $0.jobs.insert(jobID: jobID, kind: ExportRequest.jobKind(request.kind), params: params, now: now)
            })
    }

    public func find(_ caller: Caller, _ kind: ExportKind, _ requestID: String) async throws -> View {
        try caller.requireAdmin()
        guard let job = try await store.read({ try $0.jobs.find(requestID, kind: ExportRequest.jobKind(kind)) }), let shown = try? view(job)
        else { throw ParleyError.notFound("Export \"\(requestID)\" not found.") }
        return shown
    }

    /// Newest first, of one data type.
    public func list(_ caller: Caller, _ kind: ExportKind, limit: Int, pageToken: String?) async throws -> Page<View> {
        try caller.requireAdmin()
        return try await JobListing.page(
            store, pageTokens, kind: ExportRequest.jobKind(kind), scope: "exports|\(kind.rawValue)", limit: limit, pageToken: pageToken,
            view)
    }

    /// `GET /v3/export/{data_type}/{request_id}/file`: for the holder of its link until it expires.
    public func file(_ kind: ExportKind, _ requestID: String, expiresAt: Int64, signature: String) async throws -> FileDownload {
        guard links.verify(path: Self.filePath(kind, requestID), expiresAt: expiresAt, signature: signature, now: clock.nowMillis),
            let job = try await store.read({ try $0.jobs.find(requestID, kind: ExportRequest.jobKind(kind)) }),
            let result = try job.result.map({ try JSONDecoder().decode(ExportResult.self, from: Data($0.utf8)) }),
            result.expiresAt == expiresAt
        else { throw ParleyError.notFound("No such export, or its link expired.") }
        let format = (try? view(job))?.request.format ?? .json
        return try await files.openGenerated(
            result.fileID, name: "\(kind.rawValue)-\(requestID).\(format.rawValue)",
            contentType: format == .json ? "application/json" : "text/csv")
    }

    static func filePath(_ kind: ExportKind, _ requestID: String) -> String {
        "/v3/export/\(kind.rawValue)/\(JobListing.segment(requestID))/file"
    }

    private func view(_ job: Job) throws -> View {
        let request = try JSONDecoder().decode(ExportRequest.self, from: Data(job.params.utf8))
        let result = try job.result.map { try JSONDecoder().decode(ExportResult.self, from: Data($0.utf8)) }
        let file = result.map { result in
            let link = links.link(path: Self.filePath(request.kind, job.jobID), expiresAt: result.expiresAt)
            return (link.url, link.expiresAt, result.records)
        }
        return View(job: job, request: request, file: file)
    }
}
