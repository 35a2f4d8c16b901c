import ParleyCore
import Postgres

/// What a metadata map belongs to; each has its own table.
public enum MetadataOwner: Sendable {
    case user, groupChannel

    var table: String {
        switch self {
        case .user: "user_metadata"
        case .groupChannel: "group_channel_metadata"
        }
    }

    var column: String {
        switch self {
        case .user: "user_id"
        case .groupChannel: "channel_url"
        }
    }
}

/// SQL for a metadata table: a string map of at most 100 keys per owner.
public struct MetadataRepository {
    let connection: PostgresConnection
    let owner: MetadataOwner
    private var table: String { owner.table }
    private var column: String { owner.column }

    public func all(_ ownerID: String) throws -> [String: String] {
        let rows = try connection.query("SELECT key, value FROM \(table) WHERE \(column) = $1", [ownerID])
        var map: [String: String] = [:]
        for index in 0..<rows.count {
            map[try rows[index].decode("key")] = try rows[index].decode("value", as: String.self)
        }
        return map
    }

    public func value(_ ownerID: String, key: String) throws -> String? {
        try connection.query("SELECT value FROM \(table) WHERE \(column) = $1 AND key = $2", [ownerID, key])
            .first?.decode("value")
    }

    /// Inserts or replaces the given keys.
    public func upsert(_ ownerID: String, _ map: [String: String]) throws {
        guard !map.isEmpty else { return }
        let keys = Array(map.keys)
        try connection.query(
            """
            INSERT INTO \(table) (\(column), key, value)
            SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS t(k, v)
            ON CONFLICT (\(column), key) DO UPDATE SET value = EXCLUDED.value
            """,
            [ownerID, keys, keys.map { map[$0]! }]
        )
    }

    /// Keys of `keys` that exist for the user.
    public func existingKeys(_ ownerID: String, among keys: [String]) throws -> Set<String> {
        let rows = try connection.query("SELECT key FROM \(table) WHERE \(column) = $1 AND key = ANY($2::text[])", [ownerID, keys])
        return Set(try rows.map { try $0.decode("key", as: String.self) })
    }

    public func count(_ ownerID: String) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM \(table) WHERE \(column) = $1", [ownerID])[0].decode("n")
    }

    /// Deletes one key; false when it did not exist.
    public func delete(_ ownerID: String, key: String) throws -> Bool {
        try connection.query("DELETE FROM \(table) WHERE \(column) = $1 AND key = $2", [ownerID, key]).affectedRows == 1
    }

    public func deleteAll(_ ownerID: String) throws {
        try connection.query("DELETE FROM \(table) WHERE \(column) = $1", [ownerID])
    }
}

extension MetadataRepository {
    /// Adds new keys: 409/400202 when one exists already, 409/400203 past the key limit.
    public func add(_ ownerID: String, _ map: [String: String]) throws {
        let taken = try existingKeys(ownerID, among: Array(map.keys))
        if let key = taken.sorted().first { throw ParleyError.alreadyExists("Metadata key \"\(key)\" already exists.") }
        try upsert(ownerID, map)
        try enforceLimit(ownerID)
    }

    /// Sets the given keys; with `upsert` false every key must exist already (else 404/400201).
    public func set(_ ownerID: String, _ map: [String: String], upsert allowNew: Bool) throws {
        if !allowNew {
            let existing = try existingKeys(ownerID, among: Array(map.keys))
            if let missing = map.keys.sorted().first(where: { !existing.contains($0) }) { throw Self.keyNotFound(missing) }
        }
        try upsert(ownerID, map)
        try enforceLimit(ownerID)
    }

    /// Deletes one key; 404/400201 when it does not exist.
    public func remove(_ ownerID: String, key: String) throws {
        guard try delete(ownerID, key: key) else { throw Self.keyNotFound(key) }
    }

    /// The key's value; 404/400201 when it does not exist.
    public func require(_ ownerID: String, key: String) throws -> String {
        guard let value = try value(ownerID, key: key) else { throw Self.keyNotFound(key) }
        return value
    }

    /// Callers hold the owner's row lock, so concurrent writers cannot overrun the limit together.
    private func enforceLimit(_ ownerID: String) throws {
        guard try count(ownerID) <= Validation.maxMetadataKeys else {
            throw ParleyError.tooMany("At most \(Validation.maxMetadataKeys) metadata keys are allowed.")
        }
    }

    static func keyNotFound(_ key: String) -> ParleyError {
        ParleyError.notFound("Metadata key \"\(key)\" not found.")
    }
}
