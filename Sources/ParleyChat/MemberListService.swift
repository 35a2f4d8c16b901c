import ParleyCore
import ParleyStore

/// Who is in a channel (API.md §3.4): the members list and the member check.
public struct MemberListService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec
    let clock: Clock

    public init(store: Store, pageTokens: PageTokenCodec, clock: Clock) {
        self.store = store
        self.pageTokens = pageTokens
        self.clock = clock
    }

    public func members(
        _ caller: Caller, _ channelURL: String, filter: MemberFilter, limit: Int, pageToken: String?
    ) async throws -> Page<Member> {
        let scope =
            "members|\(channelURL)|\(filter.state.rawValue)|\(filter.operators.map { "\($0)" } ?? "-")|\(filter.order.rawValue)|\(filter.muted.rawValue)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }
        let rows = try await store.read { repositories -> [(member: Member, position: [String])] in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            let showsActivity = context.access.canSeeMemberActivity
            // Filtering on mutes would show them as surely as listing them.
            if !showsActivity && filter.muted != .all {
                throw ParleyError.forbidden("Only joined members filter on mutes in \"\(channelURL)\".")
            }
            let rows = try repositories.groupChannelMembers.list(
                channelURL, filter, viewerID: caller.userID, after: after, limit: limit + 1, now: clock.nowMillis)
            return showsActivity ? rows : rows.map { (member: $0.member.withoutActivity(), position: $0.position) }
        }
        let page = rows.prefix(limit)
        return Page(
            items: page.map(\.member), positions: page.map(\.position), more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    /// Whether `userID` is a member, and in which state.
    public func state(_ caller: Caller, _ channelURL: String, userID: String) async throws -> MemberState? {
        try await store.read { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            return try repositories.groupChannelMembers.state(channelURL, userID)?.state
        }
    }
}
