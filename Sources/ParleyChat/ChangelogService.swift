import ParleyCore
import ParleyStore

/// Catch-up over REST (API.md §6.6, Sendbird's changelogs): what changed since a time or since
/// the last page, oldest first, for a client that was away or was told `resync_required`.
///
/// What a changelog reads is kept by triggers (migration 0007), because some twenty statements
/// change channels and members: channels' and memberships' `changed_at`, and the
/// `group_channel_departures` a user's changelog shows as `deleted`. Messages' `changed_at` is
/// set by the statements that change them.
public struct ChangelogService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec

    public init(store: Store, pageTokens: PageTokenCodec) {
        self.store = store
        self.pageTokens = pageTokens
    }

    /// Where a changelog starts: after `change_ts`, or where the page of `token` ended.
    public enum Start: Sendable {
        case changeTS(Int64)
        case token(String)
    }

    public struct Changes<Updated: Sendable, Deleted: Sendable>: Sendable {
        public let updated: [Updated]
        public let deleted: [Deleted]
        public let hasMore: Bool
        /// The token of the next page; also where to continue later when `hasMore` is false.
        public let next: String
        /// An answer its byte budget cut right after `updated[index]` (issue 50.2): the deletions
        /// that came before that change, and the token that goes on after it.
        public let cut: @Sendable (Int) -> (deleted: [Deleted], next: String)

        /// The page of `updated` and of `sequence` (each change in order: a deletion's value, or nil
        /// for the next of `updated`, at its position), which ends at `end` (nil: none was read).
        init(
            updated: [Updated], sequence: [(deleted: Deleted?, position: ChangePosition)], hasMore: Bool, end: ChangePosition,
            token: @escaping @Sendable (ChangePosition) -> String
        ) {
            self.updated = updated
            self.deleted = sequence.compactMap(\.deleted)
            self.hasMore = hasMore
            self.next = token(end)
            let updatedAt = sequence.indices.filter { sequence[$0].deleted == nil }
            self.cut = { index in
                let end = updatedAt[index]
                return (sequence[..<end].compactMap(\.deleted), token(sequence[end].position))
            }
        }
    }

    /// The channel's messages edited, reacted to or deleted since `start`, as the viewer may see
    /// them (the session user, or the user the admin names).
    public func messages(
        _ caller: Caller, _ channelURL: String, since start: Start, viewerID: String?, limit: Int
    ) async throws -> Changes<Message, Int64> {
        let viewer = try caller.viewer(named: viewerID)
        let scope = "messages|\(channelURL)"
        let after = try position(start, scope: scope)
        let (updated, sequence, more) = try await store.replicaRead { repositories in
            // Group channels only: `now` matters only for an open channel's ban check.
            let viewer = try MessageService.viewer(.group, channelURL, caller, viewer, now: 0, repositories)
            let changes = try repositories.changelogs.messageChanges(channelURL, after: after, viewer: viewer, limit: limit + 1)
            let page = changes.prefix(limit)
            let updated = try MessageDetails.attach(page.map(\.0).filter { !$0.isRemoved }, repositories)
            return (updated, page.map { (deleted: $0.0.isRemoved ? $0.0.messageID : nil, position: $0.1) }, changes.count > limit)
        }
        let end = sequence.last?.position ?? after
        return Changes(updated: updated, sequence: sequence, hasMore: more, end: end) { [self] in token(scope: scope, $0) }
    }

    /// The user's channels that changed since `start` (with the user's own fields), and those
    /// they are no longer in.
    public func myChannels(_ caller: Caller, userID: String, since start: Start, limit: Int) async throws -> Changes<ChannelView, String> {
        try caller.requireActingAs(userID)
        let scope = "channels|\(userID)"
        let after = try position(start, scope: scope)
        let (updated, sequence, more) = try await store.replicaRead { repositories in
            let changes = try repositories.changelogs.channelChanges(userID, after: after, limit: limit + 1)
            let page = changes.prefix(limit)
            let updated = try ChannelViews.load(page.filter { !$0.departed }.map(\.channelURL), viewerID: userID, repositories)
            // A channel gone since its change is left out (as the views leave it out).
            let loaded = Set(updated.map(\.channel.channelURL))
            let sequence = page.compactMap { change -> (deleted: String?, position: ChangePosition)? in
                change.departed ? (change.channelURL, change.position) : loaded.contains(change.channelURL) ? (nil, change.position) : nil
            }
            return (updated, (sequence, page.last?.position), changes.count > limit)
        }
        return Changes(updated: updated, sequence: sequence.0, hasMore: more, end: sequence.1 ?? after) { [self] in
            token(scope: scope, $0)
        }
    }

    private func position(_ start: Start, scope: String) throws -> ChangePosition {
        switch start {
        case .changeTS(let ts):
            return ChangePosition(changedAt: ts, key: "")
        case .token(let token):
            let parts = try pageTokens.decode(token, scope: scope)
            guard parts.count == 2, let changedAt = Int64(parts[0]) else { throw ParleyError.invalidPageToken }
            return ChangePosition(changedAt: changedAt, key: parts[1])
        }
    }

    private func token(scope: String, _ position: ChangePosition) -> String {
        pageTokens.encode(scope: scope, position: [String(position.changedAt), position.key])
    }
}
