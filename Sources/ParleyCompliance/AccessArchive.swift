import Foundation
import ParleyFiles
import ParleyStore

/// A GDPR access archive (API.md §14.1): the user's data as JSON lines, one record per line
/// (`{"type": …, "data": {…}}`): the profile with metadata, blocks and device tokens, the channel
/// memberships, the reactions, every message they sent (not deleted), and each file they uploaded,
/// decrypted, as base64 (`file`, streamed a chunk at a time: memory stays flat whatever the
/// sizes). Stored encrypted like uploads; the job's result links it. The archive is written in one
/// run, the lease renewed as it goes; a run that dies is started over by the next.
struct AccessArchive: Sendable {
    let files: FileService
    let links: SignedLinks
    let messageBatch: Int

    private struct Progress: Codable, Sendable {}

    func run(_ job: RunningJob, _ request: GDPRRequest) async throws -> String {
        let (userID, store, messageBatch, files) = (request.userIDs[0], job.store, messageBatch, files)
        let stored = try await files.storeGenerated { sink in
            let (profile, memberships, reactions) = try await store.read { repositories in
                let data = repositories.personalData
                return (try data.profile(userID), try data.memberships(userID), try data.reactions(userID))
            }
            if let profile { try await Self.line("user", profile, to: sink) }
            for record in memberships { try await Self.line("channel_membership", record, to: sink) }
            for record in reactions { try await Self.line("reaction", record, to: sink) }
            var after: Int64 = 0
            while true {
                _ = try await job.step({ _, _ in }, from: Progress())
                let page = try await store.read { [after] in try $0.personalData.sentMessages(userID, after: after, limit: messageBatch) }
                guard let last = page.last else { break }
                for message in page {
                    try await Self.line("message", message.record, to: sink)
                    if let fileID = message.fileID { try await Self.copy(fileID, of: message.messageID, files, to: sink) }
                }
                after = last.messageID
            }
        }
        let result = GDPRResult(fileID: stored.fileID, expiresAt: job.clock.nowMillis + links.lifetimeMillis)
        return String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }

    private static func line(_ type: String, _ record: String, to sink: GeneratedFileSink) async throws {
        try await sink.write(Data("{\"type\":\"\(type)\",\"data\":\(record)}\n".utf8))
    }

    /// `{"type":"file","data":{"file_id":…,"message_id":…,"content_base64":"…"}}`, the content
    /// encoded as it is read (in multiples of three bytes, so the pieces join into one base64).
    private static func copy(_ fileID: String, of messageID: Int64, _ files: FileService, to sink: GeneratedFileSink) async throws {
        try await sink.write(
            Data("{\"type\":\"file\",\"data\":{\"file_id\":\"\(fileID)\",\"message_id\":\(messageID),\"content_base64\":\"".utf8))
        var carry = Data()
        _ = try await files.readStored(fileID) { chunk in
            carry.append(chunk)
            let whole = carry.count - carry.count % 3
            try await sink.write(carry.prefix(whole).base64EncodedData())
            carry = Data(carry.dropFirst(whole))
        }
        try await sink.write(carry.base64EncodedData() + Data("\"}}\n".utf8))
    }
}
