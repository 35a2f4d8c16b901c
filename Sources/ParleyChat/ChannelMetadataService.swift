import ParleyCore
import ParleyStore

/// A channel's metadata map (API.md §3.10, §8.2), read and written as `ChannelMapAccess` says.
public struct ChannelMetadataService: Sendable {
    let access: ChannelMapAccess

    public init(store: Store, clock: Clock) {
        access = ChannelMapAccess(store: store, clock: clock)
    }

    public func all(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String) async throws -> [String: String] {
        try await access.reading(caller, kind, channelURL) { try $0.channelMetadata(channelURL, kind: kind).all() }
    }

    public func value(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, key: String) async throws -> String {
        try await access.reading(caller, kind, channelURL) {
            try MetadataRules.value(of: key, in: $0.channelMetadata(channelURL, kind: kind))
        }
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

    /// A write, and `metadata_changed` with the values set and the keys `deleted` finds before the
    /// write removes them.
    private func writing(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, changed: [String: String] = [:],
        deleted: @escaping @Sendable (Repositories) throws -> [String] = { _ in [] },
        _ body: @escaping @Sendable (Repositories) throws -> Void
    ) async throws {
        try await access.writing(caller, kind, channelURL) { repositories in
            let deletedKeys = try deleted(repositories)
            try body(repositories)
            return ((), (.metadataChanged, .metadata(changed: changed, deletedKeys: deletedKeys)))
        }
    }
}
