import ParleyCore
import ParleyStore

/// Read and delivery receipts and unread counts (API.md §4.7).
public struct ReceiptService: Sendable {
    let store: Store
    let clock: Clock

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// Marks the channel read for the user up to `timestamp` (everything when nil).
    public func markAsRead(_ caller: Caller, _ channelURL: String, userID: String, timestamp: Int64?) async throws {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            guard try repositories.receipts.markRead(channelURL, userID, timestamp: timestamp, now: now) else {
                throw Self.notMember(userID, channelURL)
            }
            ChannelEvents.channel(.read, channelURL, payload: .receipt(userID: userID, ts: timestamp ?? now), repositories)
        }
    }

    public func markAsDelivered(_ caller: Caller, _ channelURL: String, userID: String) async throws -> Int64 {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            guard let ts = try repositories.receipts.markDelivered(channelURL, userID, now: now) else {
                throw Self.notMember(userID, channelURL)
            }
            ChannelEvents.channel(.delivered, channelURL, payload: .receipt(userID: userID, ts: ts), repositories)
            return ts
        }
    }

    /// Unread counts of members in one channel: the admin asks for anyone, a user for themself.
    public func unreadCounts(_ caller: Caller, _ channelURL: String, userIDs: [String]) async throws -> [String: Int] {
        for userID in userIDs { try caller.requireActingAs(userID) }
        return try await store.read { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            return try repositories.receipts.unreadCounts(channelURL, userIDs)
        }
    }

    public func markAllAsRead(_ caller: Caller, userID: String, channelURLs: [String]?) async throws {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        try await store.transaction { repositories in
            for channelURL in try repositories.receipts.markAllRead(userID, channelURLs: channelURLs, now: now) {
                ChannelEvents.channel(.read, channelURL, payload: .receipt(userID: userID, ts: now), repositories)
            }
        }
    }

    /// The user's unread messages and unread channels over their joined channels.
    public func userUnread(_ caller: Caller, userID: String, customTypes: [String]?, superMode: TriStateMode) async throws -> (
        messages: Int, channels: Int
    ) {
        try caller.requireActingAs(userID)
        return try await store.read { try $0.receipts.userUnread(userID, customTypes: customTypes, superMode: superMode) }
    }

    /// `GET /v3/users/{user_id}/unread_item_count`: the keys asked for (`item_keys`), or all.
    public func unreadItems(_ caller: Caller, userID: String, customType: String?, keys: [String]?) async throws -> [String: Int] {
        try caller.requireActingAs(userID)
        if let unknown = keys?.first(where: { !UnreadItems.keys.contains($0) }) {
            throw ParleyError.invalidValue("item_keys", "\"\(unknown)\" is not one of \(UnreadItems.keys.joined(separator: ", "))")
        }
        let items = try await store.replicaRead { try $0.receipts.unreadItems(userID, customType: customType) }
        guard let keys, !keys.isEmpty else { return items.counts }
        return items.counts.filter { keys.contains($0.key) }
    }

    /// `GET /v3/users/{user_id}/group_channel_count`.
    public func channelCount(_ caller: Caller, userID: String, state: MemberStateFilter) async throws -> Int {
        try caller.requireActingAs(userID)
        return try await store.replicaRead { try $0.receipts.channelCount(userID, state: state) }
    }

    /// The member's count preference in a group channel; 404 for a channel they are not in.
    public func countPreference(_ caller: Caller, userID: String, channelURL: String) async throws -> CountPreference {
        try caller.requireActingAs(userID)
        guard let preference = try await store.read({ try $0.receipts.countPreference(channelURL, userID) }) else {
            throw Self.notAMember(userID, channelURL)
        }
        return preference
    }

    /// Sets it; the member's totals count by it from then on.
    public func setCountPreference(
        _ caller: Caller, userID: String, channelURL: String, _ preference: CountPreference
    ) async throws -> CountPreference {
        try caller.requireActingAs(userID)
        guard try await store.transaction({ try $0.receipts.setCountPreference(channelURL, userID, preference) }) else {
            throw Self.notAMember(userID, channelURL)
        }
        return preference
    }

    private static func notAMember(_ userID: String, _ channelURL: String) -> ParleyError {
        ParleyError.notFound("\"\(userID)\" is not a member of group channel \"\(channelURL)\".")
    }

    static func notMember(_ userID: String, _ channelURL: String) -> ParleyError {
        ParleyError.forbidden("\"\(userID)\" is not a member of \"\(channelURL)\".")
    }
}
