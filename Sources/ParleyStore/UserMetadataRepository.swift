import ParleyCore
import Postgres

/// SQL for `user_metadata`, a string map of at most 100 keys per user.
public struct UserMetadataRepository {
    let connection: PostgresConnection

    public func all(_ userID: String) throws -> [String: String] {
        let rows = try connection.query("SELECT key, value FROM user_metadata WHERE user_id = $1", [userID])
        var map: [String: String] = [:]
        for index in 0..<rows.count {
            map[try rows[index].decode("key")] = try rows[index].decode("value", as: String.self)
        }
        return map
    }

    public func value(_ userID: String, key: String) throws -> String? {
        try connection.query("SELECT value FROM user_metadata WHERE user_id = $1 AND key = $2", [userID, key])
            .first?.decode("value")
    }

    /// Inserts or replaces the given keys.
    public func upsert(_ userID: String, _ map: [String: String]) throws {
        guard !map.isEmpty else { return }
        let keys = Array(map.keys)
        try connection.query(
            """
            INSERT INTO user_metadata (user_id, key, value)
            SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS t(k, v)
            ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value
            """,
            [userID, keys, keys.map { map[$0]! }]
        )
    }

    /// Keys of `keys` that exist for the user.
    public func existingKeys(_ userID: String, among keys: [String]) throws -> Set<String> {
        let rows = try connection.query("SELECT key FROM user_metadata WHERE user_id = $1 AND key = ANY($2::text[])", [userID, keys])
        return Set(try rows.map { try $0.decode("key", as: String.self) })
    }

    public func count(_ userID: String) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM user_metadata WHERE user_id = $1", [userID])[0].decode("n")
    }

    /// Deletes one key; false when it did not exist.
    public func delete(_ userID: String, key: String) throws -> Bool {
        try connection.query("DELETE FROM user_metadata WHERE user_id = $1 AND key = $2", [userID, key]).affectedRows == 1
    }

    public func deleteAll(_ userID: String) throws {
        try connection.query("DELETE FROM user_metadata WHERE user_id = $1", [userID])
    }
}
