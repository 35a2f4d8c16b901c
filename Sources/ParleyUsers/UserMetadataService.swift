import ParleyCore
import ParleyStore

/// A user's metadata map (API.md §2.2): read and written by the admin and the user themself.
public struct UserMetadataService: Sendable {
    private let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func all(_ actor: Actor, _ userID: String) async throws -> [String: String] {
        try actor.requireActingAs(userID)
        return try await store.readingUser(userID) { try $0.userMetadata.all(userID) }
    }

    public func value(_ actor: Actor, _ userID: String, key: String) async throws -> String {
        try actor.requireActingAs(userID)
        return try await store.readingUser(userID) { repositories in
            guard let value = try repositories.userMetadata.value(userID, key: key) else { throw Self.keyNotFound(key) }
            return value
        }
    }

    /// Adds new keys; 409/400202 when one of them exists already.
    public func create(_ actor: Actor, _ userID: String, _ map: [String: String]) async throws -> [String: String] {
        try actor.requireActingAs(userID)
        return try await write(userID) { repositories in
            let taken = try repositories.userMetadata.existingKeys(userID, among: Array(map.keys))
            if let key = taken.sorted().first { throw ParleyError.alreadyExists("Metadata key \"\(key)\" already exists.") }
            try repositories.userMetadata.upsert(userID, map)
            return map
        }
    }

    /// Sets the given keys; with `upsert` false, every key must exist already (else 404/400201).
    public func update(_ actor: Actor, _ userID: String, _ map: [String: String], upsert: Bool) async throws -> [String: String] {
        try actor.requireActingAs(userID)
        return try await write(userID) { repositories in
            if !upsert {
                let existing = try repositories.userMetadata.existingKeys(userID, among: Array(map.keys))
                if let missing = map.keys.sorted().first(where: { !existing.contains($0) }) { throw Self.keyNotFound(missing) }
            }
            try repositories.userMetadata.upsert(userID, map)
            return map
        }
    }

    public func delete(_ actor: Actor, _ userID: String, key: String) async throws {
        try actor.requireActingAs(userID)
        try await write(userID) { repositories in
            guard try repositories.userMetadata.delete(userID, key: key) else { throw Self.keyNotFound(key) }
        }
    }

    public func deleteAll(_ actor: Actor, _ userID: String) async throws {
        try actor.requireActingAs(userID)
        try await write(userID) { try $0.userMetadata.deleteAll(userID) }
    }

    /// Runs a change with the user's row locked, then enforces the 100-key limit on the result;
    /// the lock makes concurrent writers see each other's keys, so the limit cannot be overrun.
    private func write<T: Sendable>(_ userID: String, _ change: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await store.changingUser(userID) { repositories in
            let value = try change(repositories)
            guard try repositories.userMetadata.count(userID) <= Validation.maxMetadataKeys else {
                throw ParleyError.tooMany("A user may have at most \(Validation.maxMetadataKeys) metadata keys.")
            }
            return value
        }
    }

    static func keyNotFound(_ key: String) -> ParleyError {
        ParleyError.notFound("Metadata key \"\(key)\" not found.")
    }
}
