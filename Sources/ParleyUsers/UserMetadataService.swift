import ParleyCore
import ParleyStore

/// A user's metadata map (API.md §2.2): read and written by the admin and the user themself.
public struct UserMetadataService: Sendable {
    private let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func all(_ caller: Caller, _ userID: String) async throws -> [String: String] {
        try caller.requireActingAs(userID)
        return try await store.readingUser(userID) { try $0.userMetadata(userID).all() }
    }

    public func value(_ caller: Caller, _ userID: String, key: String) async throws -> String {
        try caller.requireActingAs(userID)
        return try await store.readingUser(userID) { try MetadataRules.value(of: key, in: $0.userMetadata(userID)) }
    }

    /// Adds new keys; 409/400202 when one of them exists already.
    public func create(_ caller: Caller, _ userID: String, _ map: [String: String]) async throws {
        try caller.requireActingAs(userID)
        try await store.changingUser(userID) { try MetadataRules.add(map, to: $0.userMetadata(userID)) }
    }

    /// Sets the given keys; with `upsert` false, every key must exist already (else 404/400201).
    public func update(_ caller: Caller, _ userID: String, _ map: [String: String], upsert: Bool) async throws {
        try caller.requireActingAs(userID)
        try await store.changingUser(userID) { try MetadataRules.set(map, upsert: upsert, in: $0.userMetadata(userID)) }
    }

    public func delete(_ caller: Caller, _ userID: String, key: String) async throws {
        try caller.requireActingAs(userID)
        try await store.changingUser(userID) { try MetadataRules.remove(key, from: $0.userMetadata(userID)) }
    }

    public func deleteAll(_ caller: Caller, _ userID: String) async throws {
        try caller.requireActingAs(userID)
        try await store.changingUser(userID) { try $0.userMetadata(userID).deleteAll() }
    }
}
