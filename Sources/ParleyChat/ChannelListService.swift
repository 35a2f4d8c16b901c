import ParleyCore
import ParleyStore

/// Channel lists (API.md §3.8, §3.9), keyset-paginated in each order.
public struct ChannelListService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec

    public init(store: Store, pageTokens: PageTokenCodec) {
        self.store = store
        self.pageTokens = pageTokens
    }

    /// `my_group_channels`: the user's channels (the user themself or the admin).
    public func myChannels(
        _ caller: Caller, userID: String, filter: ChannelFilter, limit: Int, pageToken: String?
    ) async throws -> Page<ChannelView> {
        try caller.requireActingAs(userID)
        var filter = filter
        // "The user is implied" in members_exactly_in.
        if let exact = filter.membersExactlyIn { filter.membersExactlyIn = orderedUnique([userID] + exact) }
        return try await page(.memberOf(userID), filter, viewer: userID, scope: "my|\(userID)", limit: limit, pageToken: pageToken)
    }

    /// `GET /v3/group_channels`: all channels for the admin; public channels plus their own for
    /// a session user. Per-user fields belong to the session user or the `user_id` named.
    public func channels(
        _ caller: Caller, viewerID: String?, filter: ChannelFilter, limit: Int, pageToken: String?
    ) async throws -> Page<ChannelView> {
        let viewer = try caller.viewer(named: viewerID)
        if filter.unreadOnly && viewer == nil { throw ParleyError.missing("user_id") }
        let scope = ChannelListScope.all(viewer: viewer, restrictToVisible: !caller.isAdmin)
        return try await page(scope, filter, viewer: viewer, scope: "all|\(viewer ?? "-")", limit: limit, pageToken: pageToken)
    }

    private func page(
        _ listScope: ChannelListScope, _ filter: ChannelFilter, viewer: String?, scope: String, limit: Int, pageToken: String?
    ) async throws -> Page<ChannelView> {
        if filter.order == .metadataValueAlphabetical && filter.metadataOrderKey == nil {
            throw ParleyError.missing("metadata_order_key")
        }
        let tokenScope = scope + "|" + filter.scope
        let after = try pageToken.map { try pageTokens.decode($0, scope: tokenScope) }
        let (rows, views) = try await store.read { repositories in
            let rows = try repositories.groupChannelLists.page(listScope, filter, after: after, limit: limit + 1)
            let views = try ChannelViews.load(rows.prefix(limit).map(\.url), viewerID: viewer, repositories)
            return (rows.map(\.position), views)
        }
        let next = rows.count > limit ? pageTokens.encode(scope: tokenScope, position: rows[limit - 1]) : ""
        return Page(items: views, next: next)
    }
}
