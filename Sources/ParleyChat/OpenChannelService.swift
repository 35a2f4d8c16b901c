import ParleyCore
import ParleyFiles
import ParleyStore

/// Open channels (API.md §8.1, §8.2): create, list, read, change, delete, operators and freeze.
/// Anyone may look at an open channel; its operators and the admin manage it.
public struct OpenChannelService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let files: FileService

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, files: FileService) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.files = files
    }

    /// The admin creates with the operators it names; a session user creates and becomes its
    /// operator (with any others they name).
    public func create(_ caller: Caller, _ new: NewOpenChannel) async throws -> OpenChannel {
        let now = clock.nowMillis
        let channelURL = new.channelURL ?? "open_" + SecretHashing.randomHex(bytes: 16)
        let operatorIDs = ([caller.userID].compactMap { $0 } + new.operatorIDs).orderedUnique()
        return try await store.transaction { repositories in
            try requireUsersExist(operatorIDs, repositories)
            try repositories.openChannels.insert(new, channelURL: channelURL, createdBy: caller.userID, now: now)
            if let hours = new.messageRetentionHours { try repositories.openChannels.setRetention(channelURL, hours: hours) }
            try repositories.openChannels.addOperators(channelURL, operatorIDs)
            let channel = try Self.channel(channelURL, repositories)
            repositories.events.append(
                .webhookOnly(.channelCreated, channelURL: channelURL, channelKind: .open, payload: .openChannel(channel)))
            return channel
        }
    }

    public func get(_ caller: Caller, _ channelURL: String) async throws -> OpenChannel {
        try await store.replicaRead { try Self.channel(channelURL, $0) }
    }

    /// A page of the list, newest first.
    public func list(_ caller: Caller, _ filter: OpenChannelFilter, limit: Int, pageToken: String?) async throws -> Page<OpenChannel> {
        let scope = [
            "open", filter.nameContains ?? "-", filter.urlContains ?? "-", filter.customTypes?.joined(separator: ",") ?? "-",
            "\(filter.showFrozen)"
        ].joined(separator: "|")
        let after = try pageToken.map { token -> (createdAt: Int64, channelURL: String) in
            let position = try pageTokens.decode(token, scope: scope)
            guard position.count == 2, let createdAt = Int64(position[0]) else { throw ParleyError.invalidPageToken }
            return (createdAt, position[1])
        }
        let rows = try await store.replicaRead { repositories in
            try Self.withLastPins(try repositories.openChannels.list(filter, after: after, limit: limit + 1), repositories)
        }
        let page = Array(rows.prefix(limit))
        return Page(
            items: page, positions: page.map { ["\($0.createdAt)", $0.channelURL] }, more: rows.count > limit, tokens: pageTokens,
            scope: scope)
    }

    /// Operators and the admin change the channel; `operator_ids` replaces the operators.
    public func update(_ caller: Caller, _ channelURL: String, _ update: OpenChannelUpdate) async throws -> OpenChannel {
        try await managing(caller, channelURL) { repositories in
            try repositories.openChannels.update(channelURL, update)
            if let hours = update.messageRetentionHours { try repositories.openChannels.setRetention(channelURL, hours: hours) }
            if let operatorIDs = update.operatorIDs {
                try requireUsersExist(operatorIDs, repositories)
                try repositories.openChannels.replaceOperators(channelURL, operatorIDs)
                try Self.operatorsChanged(channelURL, repositories)
            }
            let channel = try Self.channel(channelURL, repositories)
            ChannelEvents.channel(.channelChanged, channelURL, kind: .open, payload: .openChannel(channel), repositories)
            return channel
        }
    }

    /// Operators and the admin delete the channel with its messages and files (the files'
    /// bytes once the deletion has committed); its participants are told.
    public func delete(_ caller: Caller, _ channelURL: String) async throws {
        let files = files
        try await managing(caller, channelURL) { repositories in
            let fileIDs = try repositories.files.removeForChannel(channelURL)
            let participants = try repositories.events.recipients([channelURL])[channelURL]?.map(\.userID) ?? []
            try repositories.openChannels.delete(channelURL)
            repositories.events.append(
                NewEvent(.channelDeleted, channelURL: channelURL, audience: .users, userIDs: participants, channelKind: .open))
            try ChannelEvents.audit(.channelDeleted, caller, channelURL, kind: .open, repositories)
            if !fileIDs.isEmpty { repositories.afterCommit { await files.removeStoredFiles(fileIDs) } }
        }
    }

    /// While frozen, only operators and the admin send.
    public func freeze(_ caller: Caller, _ channelURL: String, _ freeze: Bool) async throws -> OpenChannel {
        try await managing(caller, channelURL) { repositories in
            try repositories.openChannels.setFreeze(channelURL, freeze)
            ChannelEvents.channel(freeze ? .channelFrozen : .channelUnfrozen, channelURL, kind: .open, repositories)
            try ChannelEvents.audit(freeze ? .freeze : .unfreeze, caller, channelURL, kind: .open, repositories)
            return try Self.channel(channelURL, repositories)
        }
    }

    public func operators(_ caller: Caller, _ channelURL: String) async throws -> [BasicUser] {
        try await store.read { repositories in
            _ = try ChannelContext.load(.open, channelURL, caller, repositories, forUpdate: false)
            return try repositories.openChannels.operators(channelURL)
        }
    }

    /// Any existing users may be made operators; they need not be in the channel.
    public func addOperators(_ caller: Caller, _ channelURL: String, userIDs: [String]) async throws {
        try await managing(caller, channelURL) { repositories in
            try requireUsersExist(userIDs, repositories)
            try repositories.openChannels.addOperators(channelURL, userIDs)
            try Self.operatorsChanged(channelURL, repositories)
            try ChannelEvents.audit(
                .operatorsAdded, caller, channelURL, kind: .open, details: ["user_ids": userIDs.joined(separator: ",")], repositories)
        }
    }

    public func removeOperators(_ caller: Caller, _ channelURL: String, userIDs: [String]) async throws {
        try await managing(caller, channelURL) { repositories in
            let operators = try repositories.openChannels.operators(channelURL)
            try ChannelAccess.requireMayRemoveOperators(userIDs, operators: Set(operators.map(\.userID)), by: caller)
            try repositories.openChannels.removeOperators(channelURL, userIDs)
            try Self.operatorsChanged(channelURL, repositories)
            try ChannelEvents.audit(
                .operatorsRemoved, caller, channelURL, kind: .open, details: ["user_ids": userIDs.joined(separator: ",")], repositories)
        }
    }

    /// Runs `body` with the channel locked, if the caller manages it (404 unknown, 403 others).
    private func managing<T: Sendable>(_ caller: Caller, _ channelURL: String, _ body: @escaping @Sendable (Repositories) throws -> T)
        async throws -> T
    {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(.open, channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            return try body(repositories)
        }
    }

    static func channel(_ channelURL: String, _ repositories: Repositories) throws -> OpenChannel {
        guard let channel = try repositories.openChannels.channels([channelURL])[channelURL] else {
            throw ChannelAccess.notFound(channelURL)
        }
        return try withLastPins([channel], repositories)[0]
    }

    /// The channels with their newest pinned message (one query for those with pins).
    static func withLastPins(_ channels: [OpenChannel], _ repositories: Repositories) throws -> [OpenChannel] {
        let pinning = channels.filter { !($0.pinnedMessageIDs?.isEmpty ?? true) }.map(\.channelURL)
        guard !pinning.isEmpty else { return channels }
        let lastPinned = try repositories.pins.lastPinned(pinning, viewerID: nil)
        let details = Dictionary(
            try MessageDetails.attach(Array(lastPinned.values), repositories).map { ($0.channelURL, $0) }, uniquingKeysWith: { a, _ in a })
        return channels.map { channel in
            var channel = channel
            channel.lastPinnedMessage = details[channel.channelURL]
            return channel
        }
    }

    private static func operatorsChanged(_ channelURL: String, _ repositories: Repositories) throws {
        ChannelEvents.channel(
            .operatorsChanged, channelURL, kind: .open, payload: .users(try repositories.openChannels.operators(channelURL)), repositories)
    }
}
