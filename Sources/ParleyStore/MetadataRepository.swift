import ParleyCore
import Postgres

/// What a metadata map belongs to; each has its own table.
public enum MetadataOwner: Sendable {
    case user, groupChannel, openChannel

    var table: String {
        switch self {
        case .user: "user_metadata"
        case .groupChannel: "group_channel_metadata"
        case .openChannel: "open_channel_metadata"
        }
    }

    var column: String {
        switch self {
        case .user: "user_id"
        case .groupChannel, .openChannel: "channel_url"
        }
    }
}

/// SQL for one owner's rows of a metadata table (a string map per user or channel); the rules
/// (the key limit, which changes are refused) are `MetadataRules`.
public struct MetadataRepository: MetadataRows {
    let connection: PostgresConnection
    let owner: MetadataOwner
    let ownerID: String
    private var table: String { owner.table }
    private var column: String { owner.column }

    public func all() throws -> [String: String] {
        let rows = try connection.query("SELECT key, value FROM \(table) WHERE \(column) = $1", [ownerID])
        var map: [String: String] = [:]
        for row in rows { map[try row.decode("key")] = try row.decode("value", as: String.self) }
        return map
    }

    public func value(of key: String) throws -> String? {
        try connection.query("SELECT value FROM \(table) WHERE \(column) = $1 AND key = $2", [ownerID, key])
            .first?.decode("value")
    }

    public func existing(among keys: [String]) throws -> Set<String> {
        let rows = try connection.query("SELECT key FROM \(table) WHERE \(column) = $1 AND key = ANY($2::text[])", [ownerID, keys])
        return Set(try rows.map { try $0.decode("key", as: String.self) })
    }

    public func upsert(_ map: [String: String]) throws {
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

    public func delete(_ key: String) throws -> Bool {
        try connection.query("DELETE FROM \(table) WHERE \(column) = $1 AND key = $2", [ownerID, key]).affectedRows == 1
    }

    public func deleteAll() throws {
        try connection.query("DELETE FROM \(table) WHERE \(column) = $1", [ownerID])
    }

    public func count() throws -> Int {
        try connection.query("SELECT count(*) AS n FROM \(table) WHERE \(column) = $1", [ownerID])[0].decode("n")
    }
}
