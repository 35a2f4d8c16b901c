import Foundation
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyStore
import ParleyUsers

/// A GDPR deletion (API.md §14.1), user after user, in phases of batches: the channels the
/// request takes with them, the account, the content of every message they sent (tombstones
/// stay), their traces in others' records, then the stored events and webhook deliveries. Each
/// batch saves where it got to; a batch's stored files are removed after its commit, and again
/// by whichever run resumes the job, so no file outlives an instance that died in between.
struct UserErasure: Sendable {
    let users: UserService
    let groupChannels: GroupChannelService
    let files: FileService
    var messageBatch = 200
    var logBatch = 5_000

    enum Phase: String, Codable, Sendable {
        case channels, account, messages, mentions, records, events, webhookDeliveries
    }

    struct Progress: Codable, Sendable {
        var user = 0
        var phase = Phase.channels
        var cursor: Int64 = 0
        /// Stored files whose rows the last batch removed: removed from storage after its commit.
        var pendingFiles: [String] = []
        var removed: [String: Int] = [:]

        /// On to the next phase (or the next user after the last one).
        mutating func advance(to next: Phase?) {
            (phase, cursor) = (next ?? .channels, 0)
            if next == nil { user += 1 }
        }

        mutating func count(_ what: String, _ n: Int) {
            removed[what, default: 0] += n
        }
    }

    func run(_ job: RunningJob, _ request: GDPRRequest) async throws -> String {
        var progress = try job.progress(Progress.self, fresh: Progress())
        while progress.user < request.userIDs.count {
            await files.removeStoredFiles(progress.pendingFiles)
            let (userID, pseudonym) = (request.userIDs[progress.user], request.pseudonyms[progress.user])
            progress = try await step(progress.phase, userID, pseudonym, request, job, progress)
        }
        await files.removeStoredFiles(progress.pendingFiles)
        // The last trace: the request itself names the users by their pseudonyms from now on.
        let kept = String(decoding: try JSONEncoder().encode(request.erased), as: UTF8.self)
        let jobID = job.job.jobID
        progress = try await job.step({ repositories, _ in try repositories.jobs.replaceParams(jobID, params: kept) }, from: progress).1
        let result = ["removed": progress.removed]
        return String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }

    /// One batch of `phase`; returns the progress it saved.
    private func step(
        _ phase: Phase, _ userID: String, _ pseudonym: String, _ request: GDPRRequest, _ job: RunningJob, _ progress: Progress
    ) async throws -> Progress {
        let (now, messageBatch, logBatch) = (job.clock.nowMillis, messageBatch, logBatch)
        switch phase {
        case .channels:
            let deleted = try await deleteChannels(of: userID, request.channelDeleteOption, job)
            return try await job.step(
                { _, p in
                    p.pendingFiles = []
                    p.count("channels", deleted)
                    if deleted == 0 { p.advance(to: .account) }
                }, from: progress
            ).1
        case .account:
            let gone: Bool
            do {
                try await users.delete(.admin, userID)
                gone = true
            } catch let error as ParleyError where error.status == 404 { gone = false }
            return try await job.step(
                { _, p in
                    if gone { p.count("users", 1) }
                    p.advance(to: .messages)
                }, from: progress
            ).1
        case .messages:
            return try await job.step(
                { repositories, p in
                    let batch = try SentMessageErasure.eraseBatch(
                        sentBy: userID, after: p.cursor, limit: messageBatch, now: now, repositories)
                    (p.pendingFiles, p.cursor) = (batch.fileIDs, batch.lastID ?? 0)
                    p.count("messages", batch.removed)
                    p.count("files", batch.fileIDs.count)
                    if batch.lastID == nil { p.advance(to: .mentions) }
                }, from: progress
            ).1
        case .mentions:
            // Others' messages that mention the user name the pseudonym instead.
            return try await job.step(
                { repositories, p in
                    let last = try repositories.erasure.scrubMentions(of: userID, pseudonym: pseudonym, after: p.cursor, limit: logBatch)
                    if let last { p.cursor = last } else { p.advance(to: .records) }
                }, from: progress
            ).1
        case .records:
            return try await job.step(
                { repositories, p in
                    let scrubbed = try repositories.erasure.scrubRecords(of: userID, needles: Self.needles(userID), pseudonym: pseudonym)
                    p.pendingFiles = scrubbed.fileIDs
                    p.count("files", scrubbed.fileIDs.count)
                    for (what, n) in scrubbed.removed { p.count(what, n) }
                    p.advance(to: .events)
                }, from: progress
            ).1
        case .events, .webhookDeliveries:
            let needles = Self.needles(userID)
            return try await job.step(
                { repositories, p in
                    p.pendingFiles = []
                    let scrubbed =
                        phase == .events
                        ? try repositories.erasure.scrubEvents(
                            of: userID, needles: needles, pseudonym: pseudonym, after: p.cursor, limit: logBatch)
                        : try repositories.erasure.scrubWebhookDeliveries(
                            of: userID, needles: needles, pseudonym: pseudonym, after: p.cursor, limit: logBatch)
                    p.cursor = scrubbed.lastID ?? 0
                    p.count(phase == .events ? "events" : "webhook_deliveries", scrubbed.deleted)
                    if scrubbed.lastID == nil { p.advance(to: phase == .events ? .webhookDeliveries : nil) }
                }, from: progress
            ).1
        }
    }

    /// Deletes a batch of the channels the request takes with the user; how many it deleted.
    private func deleteChannels(of userID: String, _ option: GDPRRequest.ChannelDeleteOption, _ job: RunningJob) async throws -> Int {
        guard option != .doNotDelete else { return 0 }
        let urls = try await job.store.read { try $0.erasure.channelsToDelete(of: userID, onlyOneToOne: option == .oneToOne, limit: 20) }
        for url in urls {
            do { try await groupChannels.delete(.admin, url) } catch let error as ParleyError where error.status == 404 {}
        }
        return urls.count
    }

    /// The user's id as stored payloads may spell it: as it is, and JSON-escaped the way
    /// `JSONEncoder` writes it (`/` as `\/`).
    static func needles(_ userID: String) -> [String] {
        let encoded = String(decoding: (try? JSONEncoder().encode(userID)) ?? Data(), as: UTF8.self).dropFirst().dropLast()
        return Array(Set([userID, String(encoded)]))
    }
}
