import ParleyCore
import ParleyStore

extension PollService {
    /// `GET /v3/polls` (Sendbird's "list polls"): a channel's polls for those who read its
    /// content; without a channel, the admin's list is every poll and a session user's the polls
    /// they made. Newest first, in pages; a session user sees which options they voted for.
    public func list(_ caller: Caller, channel: (url: String, kind: ChannelKind)?, limit: Int, token: String?) async throws
        -> Page<VotedPoll>
    {
        let now = clock.nowMillis
        let scope: PollListScope =
            if let channel { .channel(url: channel.url, kind: channel.kind) } else if let userID = caller.userID {
                .createdBy(userID)
            } else { .all }
        let tokenScope = "polls:\(scope)"
        let before = try token.map { token -> Int64 in
            guard let id = Int64(try pageTokens.decode(token, scope: tokenScope).first ?? "") else { throw ParleyError.invalidPageToken }
            return id
        }
        let (page, votes) = try await store.read { repositories in
            if let channel {
                let context = try ChannelContext.load(channel.kind, channel.url, caller, repositories, forUpdate: false)
                try context.requireReadContent(now: now, repositories)
            }
            let page = try repositories.polls.list(scope, beforeID: before, limit: limit + 1)
            let votes = try caller.userID.map { try repositories.polls.votes(of: $0, in: page.map(\.pollID)) }
            return (page, votes)
        }
        let shown = page.prefix(limit).map { poll in VotedPoll(poll: poll, voted: votes.map { $0[poll.pollID] ?? [] }) }
        return Page(
            items: shown, positions: shown.map { [String($0.poll.pollID)] }, more: page.count > limit, tokens: pageTokens, scope: tokenScope
        )
    }
}

/// A poll as one caller sees it in a list: with the options they voted for (nil for the admin).
public struct VotedPoll: Sendable {
    public let poll: Poll
    public let voted: [Int64]?
}
