import ParleyCore
import ParleyStore

/// A channel's metacounter (API.md §13.6): integer values by key, read and written as
/// `ChannelMapAccess` says, with the key limits of metadata. Every change is one atomic statement
/// under the channel's row lock, so concurrent increases all count; `metacounter_changed` carries
/// the values after the change and the keys deleted.
public struct ChannelMetacounterService: Sendable {
    let access: ChannelMapAccess

    public init(store: Store, clock: Clock) {
        access = ChannelMapAccess(store: store, clock: clock)
    }

    /// The values of `keys`, or all; keys that do not exist are left out.
    public func values(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, keys: [String]?) async throws -> [String: Int64] {
        try await access.reading(caller, kind, channelURL) { try $0.channelMetacounter(channelURL, kind: kind).values(of: keys) }
    }

    /// One key's value; 404/400201 when it does not exist.
    public func value(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, key: String) async throws -> Int64 {
        try await access.reading(caller, kind, channelURL) { repositories in
            guard let value = try repositories.channelMetacounter(channelURL, kind: kind).values(of: [key])[key] else {
                throw Self.keyNotFound(key)
            }
            return value
        }
    }

    /// Adds new keys with their values: 409/400202 when one exists already.
    public func create(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ values: [String: Int64]) async throws -> [String:
        Int64]
    {
        try await changing(caller, kind, channelURL) { counters in
            if let key = try counters.values(of: Array(values.keys)).keys.sorted().first {
                throw ParleyError.alreadyExists("Metacounter key \"\(key)\" already exists.")
            }
            return try counters.write(values, mode: .set)
        }
    }

    /// Sets, increases or decreases the given keys; with `upsert` false every key must exist
    /// already (else 404/400201), otherwise a new key starts from 0.
    public func update(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ changes: [String: Int64], mode: MetacounterMode, upsert: Bool
    ) async throws -> [String: Int64] {
        try await changing(caller, kind, channelURL) { counters in
            if !upsert {
                let existing = try counters.values(of: Array(changes.keys))
                if let missing = changes.keys.sorted().first(where: { existing[$0] == nil }) { throw Self.keyNotFound(missing) }
            }
            return try counters.write(changes, mode: mode)
        }
    }

    /// Deletes one key; 404/400201 when it does not exist.
    public func delete(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, key: String) async throws {
        try await access.writing(caller, kind, channelURL) { repositories in
            guard try repositories.channelMetacounter(channelURL, kind: kind).delete(key) else { throw Self.keyNotFound(key) }
            return ((), (.metacounterChanged, .metacounter(changed: [:], deletedKeys: [key])))
        }
    }

    public func deleteAll(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String) async throws {
        try await access.writing(caller, kind, channelURL) { repositories in
            let deleted = try repositories.channelMetacounter(channelURL, kind: kind).deleteAll().sorted()
            return ((), deleted.isEmpty ? nil : (.metacounterChanged, .metacounter(changed: [:], deletedKeys: deleted)))
        }
    }

    /// A write within the key limit.
    private func changing(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String,
        _ body: @escaping @Sendable (MetacounterRepository) throws -> [String: Int64]
    ) async throws -> [String: Int64] {
        try await access.writing(caller, kind, channelURL) { repositories in
            let counters = repositories.channelMetacounter(channelURL, kind: kind)
            let values = try body(counters)
            guard try counters.count() <= Validation.maxMetadataKeys else {
                throw ParleyError.tooMany("At most \(Validation.maxMetadataKeys) metacounter keys are allowed.")
            }
            return (values, (.metacounterChanged, .metacounter(changed: values, deletedKeys: [])))
        }
    }

    static func keyNotFound(_ key: String) -> ParleyError {
        ParleyError.notFound("Metacounter key \"\(key)\" not found.")
    }
}
