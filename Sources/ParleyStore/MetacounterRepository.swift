import ParleyCore
import Postgres

/// SQL for one channel's metacounter rows (`group_channel_metacounters`,
/// `open_channel_metacounters`): integer values by key, each change one atomic statement.
public struct MetacounterRepository {
    let connection: PostgresConnection
    let kind: ChannelKind
    let channelURL: String
    private var table: String { kind == .group ? "group_channel_metacounters" : "open_channel_metacounters" }

    /// The values of `keys`, or of every key when nil; keys that do not exist are left out.
    public func values(of keys: [String]? = nil) throws -> [String: Int64] {
        let rows =
            if let keys {
                try connection.query("SELECT key, value FROM \(table) WHERE channel_url = $1 AND key = ANY($2::text[])", [channelURL, keys])
            } else {
                try connection.query("SELECT key, value FROM \(table) WHERE channel_url = $1", [channelURL])
            }
        var values: [String: Int64] = [:]
        for row in rows { values[try row.decode("key")] = try row.decode("value", as: Int64.self) }
        return values
    }

    /// Writes the given keys with `mode` (a key that does not exist yet starts from 0) and
    /// returns their values after it. A value that would leave 64 bits fails the statement
    /// (SQLSTATE 22003), which changes nothing: 400111 for the caller.
    public func write(_ changes: [String: Int64], mode: MetacounterMode) throws -> [String: Int64] {
        guard !changes.isEmpty else { return [:] }
        let keys = changes.keys.sorted()
        let rows: PostgresResult
        do {
            rows = try connection.query(
                """
                INSERT INTO \(table) AS c (channel_url, key, value)
                SELECT $1, k, CASE WHEN $4 = 'decrease' THEN -v ELSE v END FROM unnest($2::text[], $3::bigint[]) AS t(k, v)
                ON CONFLICT (channel_url, key) DO UPDATE
                    SET value = CASE WHEN $4 = 'set' THEN EXCLUDED.value ELSE c.value + EXCLUDED.value END
                RETURNING key, value
                """,
                [channelURL, keys, keys.map { changes[$0]! }, mode.rawValue]
            )
        } catch let error as PostgresError where error.sqlState == "22003" {
            throw ParleyError.invalidValue("metacounter", "a value would leave the range of a 64-bit integer")
        }
        var values: [String: Int64] = [:]
        for row in rows { values[try row.decode("key")] = try row.decode("value", as: Int64.self) }
        return values
    }

    /// Deletes one key; false when it did not exist.
    public func delete(_ key: String) throws -> Bool {
        try connection.query("DELETE FROM \(table) WHERE channel_url = $1 AND key = $2", [channelURL, key]).affectedRows == 1
    }

    /// Deletes every key and returns them.
    public func deleteAll() throws -> [String] {
        try connection.query("DELETE FROM \(table) WHERE channel_url = $1 RETURNING key", [channelURL]).map { try $0.decode("key") }
    }

    public func count() throws -> Int {
        try connection.query("SELECT count(*) AS n FROM \(table) WHERE channel_url = $1", [channelURL])[0].decode("n")
    }
}
