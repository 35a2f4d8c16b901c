import Foundation
import ParleyCore
import ParleyStore

/// What the admin's lists and links of jobs share: pages of one kind, newest first, and a job's
/// id as a path segment.
enum JobListing {
    /// One page of `kind`'s jobs after `pageToken` (scoped to `scope`), each shown by `show`.
    static func page<Item: Sendable>(
        _ store: Store, _ pageTokens: PageTokenCodec, kind: String, scope: String, limit: Int, pageToken: String?,
        _ show: (Job) throws -> Item
    ) async throws -> Page<Item> {
        let position = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { position -> (Int64, String)? in
            guard position.count == 2, let createdAt = Int64(position[0]) else { return nil }
            return (createdAt, position[1])
        }
        let jobs = try await store.read { try $0.jobs.list(kind: kind, after: position, limit: limit + 1) }
        let page = jobs.prefix(limit)
        return Page(
            items: try page.map(show), positions: page.map { [String($0.createdAt), $0.jobID] }, more: jobs.count > limit,
            tokens: pageTokens, scope: scope)
    }

    /// A job id as one path segment of a link.
    static func segment(_ jobID: String) -> String {
        jobID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? jobID
    }
}
