import ParleyCore
import ParleyStore

/// A channel's metadata map (API.md §3.10, §8.2): those who read the channel's content
/// (`ChannelContext.requireReadContent`) read it, operators and the admin write.
public struct ChannelMetadataService: Sendable {
    let store: Store
    let clock: Clock

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    public func all(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String) async throws -> [String: String] {
        try await reading(caller, kind, channelURL) { try $0.channelMetadata(channelURL, kind: kind).all() }
    }

    public func value(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, key: String) async throws -> String {
        try await reading(caller, kind, channelURL) { try MetadataRules.value(of: key, in: $0.channelMetadata(channelURL, kind: kind)) }
    }

    public func create(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ map: [String: String]) async throws {
        try await writing(caller, kind, channelURL, changed: map) {
            try MetadataRules.add(map, to: $0.channelMetadata(channelURL, kind: kind))
        }
    }

    public func update(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ map: [String: String], upsert: Bool) async throws {
        try await writing(caller, kind, channelURL, changed: map) {
            try MetadataRules.set(map, upsert: upsert, in: $0.channelMetadata(channelURL, kind: kind))
        }
    }

    public func delete(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, key: String) async throws {
        try await writing(caller, kind, channelURL, deleted: { _ in [key] }) {
            try MetadataRules.remove(key, from: $0.channelMetadata(channelURL, kind: kind))
        }
    }

    public func deleteAll(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String) async throws {
        try await writing(caller, kind, channelURL, deleted: { Array(try $0.channelMetadata(channelURL, kind: kind).all().keys).sorted() })
        {
            try $0.channelMetadata(channelURL, kind: kind).deleteAll()
        }
    }

    private func reading<T: Sendable>(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ body: @escaping @Sendable (Repositories) throws -> T
    )
        async throws -> T
    {
        let now = clock.nowMillis
        return try await store.read { repositories in
            try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false).requireReadContent(now: now, repositories)
            return try body(repositories)
        }
    }

    /// Writes with the channel row locked, so the key limit holds under concurrent writers, and
    /// tells the members (`metadata_changed`: the values set, the keys `deleted` finds before the
    /// write removes them).
    private func writing(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, changed: [String: String] = [:],
        deleted: @escaping @Sendable (Repositories) throws -> [String] = { _ in [] },
        _ body: @escaping @Sendable (Repositories) throws -> Void
    ) async throws {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(kind, channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let deletedKeys = try deleted(repositories)
            try body(repositories)
            ChannelEvents.channel(
                .metadataChanged, channelURL, kind: kind, payload: .metadata(changed: changed, deletedKeys: deletedKeys), repositories)
        }
    }
}
