import ParleyCore
import ParleyStore

/// Channel lists (API.md §3.8, §3.9), keyset-paginated in each order.
public struct ChannelListService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec
    let clock: Clock

    public init(store: Store, pageTokens: PageTokenCodec, clock: Clock) {
        self.store = store
        self.pageTokens = pageTokens
        self.clock = clock
    }

    /// `my_group_channels`: the user's channels (the user themself or the admin).
    public func myChannels(
        _ caller: Caller, userID: String, filter: ChannelFilter, showMembers: Bool = false, limit: Int, pageToken: String?
    ) async throws -> Page<ChannelView> {
        try caller.requireActingAs(userID)
        var filter = filter
        // "The user is implied" in members_exactly_in.
        if let exact = filter.membersExactlyIn { filter.membersExactlyIn = ([userID] + exact).orderedUnique() }
        return try await page(
            .memberOf(userID), filter, viewer: userID, scope: "my|\(userID)", members: showMembers ? .all : .none, limit: limit,
            pageToken: pageToken)
    }

    /// `GET /v3/group_channels`: all channels for the admin; public channels plus their own for
    /// a session user. Per-user fields belong to the session user or the `user_id` named.
    public func channels(
        _ caller: Caller, viewerID: String?, filter: ChannelFilter, showMembers: Bool = false, limit: Int, pageToken: String?
    ) async throws -> Page<ChannelView> {
        let viewer = try caller.viewer(named: viewerID)
        if filter.unreadOnly && viewer == nil { throw ParleyError.missing("user_id") }
        let scope = ChannelListScope.all(viewer: viewer, restrictToVisible: !caller.isAdmin)
        // A session user sees the members of their own channels only, as `GET …/members` does.
        let members: EmbeddedMembers = !showMembers ? .none : caller.isAdmin ? .all : .ofViewersChannels
        return try await page(
            scope, filter, viewer: viewer, scope: "all|\(viewer ?? "-")", members: members, limit: limit, pageToken: pageToken)
    }

    private func page(
        _ listScope: ChannelListScope, _ filter: ChannelFilter, viewer: String?, scope: String, members: EmbeddedMembers, limit: Int,
        pageToken: String?
    ) async throws -> Page<ChannelView> {
        if filter.order == .metadataValueAlphabetical && filter.metadataOrderKey == nil {
            throw ParleyError.missing("metadata_order_key")
        }
        let tokenScope = scope + "|" + filter.scope
        let after = try pageToken.map { try pageTokens.decode($0, scope: tokenScope) }
        let (rows, views) = try await store.replicaRead { repositories in
            let rows = try repositories.groupChannelLists.page(listScope, filter, after: after, limit: limit + 1)
            let views = try ChannelViews.load(rows.prefix(limit).map(\.url), viewerID: viewer, repositories)
            return (rows.map(\.position), try views.map { try withMembers($0, members, repositories) })
        }
        return Page(items: views, positions: Array(rows.prefix(limit)), more: rows.count > limit, tokens: pageTokens, scope: tokenScope)
    }

    /// `show_member`: each channel's first members (as `GET` of one channel shows them, without
    /// their receipts). One indexed query per channel of the page, in the page's transaction.
    private func withMembers(_ view: ChannelView, _ members: EmbeddedMembers, _ repositories: Repositories) throws -> ChannelView {
        guard members == .all || (members == .ofViewersChannels && view.membership != nil) else { return view }
        let rows = try repositories.groupChannelMembers.list(
            view.channel.channelURL, MemberFilter(), viewerID: view.viewerID, after: nil, limit: GroupChannelService.embeddedMemberLimit,
            now: clock.nowMillis)
        var shown = ChannelView(
            channel: view.channel, viewerID: view.viewerID, membership: view.membership, members: rows.map { $0.member.withoutActivity() },
            lastMessage: view.lastMessage)
        (shown.pinnedMessageIDs, shown.lastPinnedMessage) = (view.pinnedMessageIDs, view.lastPinnedMessage)
        return shown
    }
}

/// Which channels of a list carry their members (`show_member`).
enum EmbeddedMembers {
    case none, all, ofViewersChannels
}
