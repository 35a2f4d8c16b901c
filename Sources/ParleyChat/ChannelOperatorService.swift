import ParleyCore
import ParleyStore

/// Operators and freezing (API.md §3.4): operators and the admin manage both.
public struct ChannelOperatorService: Sendable {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// Makes members operators; users who are not members are 400/400111.
    public func add(_ caller: Caller, _ channelURL: String, userIDs: [String]) async throws {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let changed = Set(try repositories.groupChannelMembers.setOperator(channelURL, userIDs, true))
            let outsiders = userIDs.filter { !changed.contains($0) }
            guard outsiders.isEmpty else {
                throw ParleyError.invalidValue("operator_ids", "not members of the channel: \(outsiders.joined(separator: ", "))")
            }
            try ChannelEvents.operatorsChanged(channelURL, repositories)
            try ChannelEvents.audit(
                .operatorsAdded, caller, channelURL, details: ["user_ids": userIDs.joined(separator: ",")], repositories)
        }
    }

    public func remove(_ caller: Caller, _ channelURL: String, userIDs: [String]) async throws {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let operators = try repositories.groupChannelReader.operators([channelURL])[channelURL] ?? []
            try ChannelAccess.requireMayRemoveOperators(userIDs, operators: Set(operators.map(\.userID)), by: caller)
            try repositories.groupChannelMembers.setOperator(channelURL, userIDs, false)
            try ChannelEvents.operatorsChanged(channelURL, repositories)
            try ChannelEvents.audit(
                .operatorsRemoved, caller, channelURL, details: ["user_ids": userIDs.joined(separator: ",")], repositories)
        }
    }

    /// The operators, for anyone who may see the channel.
    public func list(_ caller: Caller, _ channelURL: String) async throws -> [BasicUser] {
        try await store.read { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            return try repositories.groupChannelReader.operators([channelURL])[channelURL] ?? []
        }
    }

    /// While frozen, only operators and the admin send messages.
    public func freeze(_ caller: Caller, _ channelURL: String, _ freeze: Bool) async throws -> ChannelView {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            try repositories.groupChannels.setFreeze(channelURL, freeze)
            ChannelEvents.channel(freeze ? .channelFrozen : .channelUnfrozen, channelURL, repositories)
            try ChannelEvents.audit(freeze ? .freeze : .unfreeze, caller, channelURL, repositories)
            return try ChannelViews.one(channelURL, viewerID: caller.userID, repositories)
        }
    }
}
