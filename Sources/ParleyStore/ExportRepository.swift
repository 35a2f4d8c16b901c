import ParleyCore
import Postgres

/// Reads of a data export (API.md §14.2), a page at a time in a stable order: each row as a JSON
/// object (text) and as CSV fields in `ExportKind.columns` order.
public struct ExportRepository {
    let connection: PostgresConnection

    public struct Row: Sendable {
        /// Where the next page starts after this row.
        public let cursor: ExportCursor
        public let json: String
        public let fields: [String]
    }

    /// The next rows of `request` after `cursor`.
    public func page(_ request: ExportRequest, after cursor: ExportCursor, limit: Int) throws -> [Row] {
        var sql = SQLBuilder()
        let (start, end) = (sql.bind(request.startTS), sql.bind(request.endTS))
        let query: String
        switch request.kind {
        case .messages:
            sql.where("m.created_at >= \(start) AND m.created_at < \(end) AND NOT m.is_removed")
            sql.where("(m.created_at, m.message_id) > (\(sql.bind(cursor.time)), COALESCE(NULLIF(\(sql.bind(cursor.id)), '')::bigint, -1))")
            filter(&sql, "m.channel_url", request.channelURLs, request.excludeChannelURLs)
            filter(&sql, "m.sender_id", request.senderIDs, request.excludeSenderIDs)
            query = """
                SELECT m.created_at AS cursor_time, m.message_id::text AS cursor_id,
                    \(Self.object(ExportKind.messages.columns, Self.messageValues)) AS json, \(Self.array(Self.messageValues)) AS fields
                FROM messages m \(sql.whereClause) ORDER BY m.created_at, m.message_id LIMIT \(sql.bind(Int64(limit)))
                """
        case .channels:
            sql.where("c.created_at >= \(start) AND c.created_at < \(end)")
            sql.where("(c.created_at, c.channel_url) > (\(sql.bind(cursor.time)), \(sql.bind(cursor.id)))")
            filter(&sql, "c.channel_url", request.channelURLs, request.excludeChannelURLs)
            if !request.userIDs.isEmpty {
                sql.where(
                    "EXISTS (SELECT 1 FROM group_channel_members gm WHERE gm.channel_url = c.channel_url AND gm.user_id = ANY(\(sql.bind(request.userIDs))))"
                )
            }
            query = """
                SELECT c.created_at AS cursor_time, c.channel_url AS cursor_id,
                    \(Self.object(ExportKind.channels.columns, Self.channelValues)) AS json, \(Self.array(Self.channelValues)) AS fields
                FROM (SELECT channel_url, 'group' AS channel_type, name, custom_type, data, member_count, is_distinct, is_public, is_super,
                        is_frozen, created_at FROM group_channels
                    UNION ALL
                    SELECT channel_url, 'open', name, custom_type, data, participant_count, false, true, false, is_frozen, created_at
                    FROM open_channels) c
                \(sql.whereClause) ORDER BY c.created_at, c.channel_url LIMIT \(sql.bind(Int64(limit)))
                """
        case .users:
            sql.where("u.created_at >= \(start) AND u.created_at < \(end)")
            sql.where("(u.created_at, u.user_id) > (\(sql.bind(cursor.time)), \(sql.bind(cursor.id)))")
            if !request.userIDs.isEmpty { sql.where("u.user_id = ANY(\(sql.bind(request.userIDs)))") }
            query = """
                SELECT u.created_at AS cursor_time, u.user_id AS cursor_id,
                    \(Self.object(ExportKind.users.columns, Self.userValues)) AS json, \(Self.array(Self.userValues)) AS fields
                FROM users u \(sql.whereClause) ORDER BY u.created_at, u.user_id LIMIT \(sql.bind(Int64(limit)))
                """
        }
        return try connection.query(query, sql.parameters).map { row in
            Row(
                cursor: ExportCursor(time: try row.decode("cursor_time"), id: try row.decode("cursor_id")), json: try row.decode("json"),
                fields: try row.decode("fields"))
        }
    }

    private func filter(_ sql: inout SQLBuilder, _ column: String, _ only: [String], _ except: [String]) {
        if !only.isEmpty { sql.where("\(column) = ANY(\(sql.bind(only)))") }
        if !except.isEmpty { sql.where("NOT (\(column) = ANY(\(sql.bind(except))))") }
    }

    static let messageValues = [
        "m.message_id", "m.channel_url", "m.channel_type", "m.message_type", "m.sender_id", "m.message", "m.data", "m.custom_type",
        "m.created_at", "m.updated_at", "m.parent_message_id", "m.file ->> 'name'", "m.file ->> 'type'", "(m.file ->> 'size')::bigint",
        "m.mentioned_user_ids"
    ]
    static let channelValues = [
        "c.channel_url", "c.channel_type", "c.name", "c.custom_type", "c.data", "c.member_count", "c.is_distinct", "c.is_public",
        "c.is_super", "c.is_frozen", "c.created_at"
    ]
    static let userValues = [
        "u.user_id", "u.nickname", "u.profile_url", "u.is_active", "u.created_at", "u.last_seen_at",
        "COALESCE((SELECT jsonb_object_agg(key, value) FROM user_metadata md WHERE md.user_id = u.user_id), '{}')"
    ]

    private static func object(_ names: [String], _ values: [String]) -> String {
        "jsonb_build_object(" + zip(names, values).map { "'\($0)', \($1)" }.joined(separator: ", ") + ")::text"
    }

    /// The values as CSV fields: NULL empty, arrays and objects as their JSON.
    private static func array(_ values: [String]) -> String {
        "ARRAY[" + values.map { "COALESCE(to_jsonb(\($0)) #>> '{}', '')" }.joined(separator: ", ") + "]::text[]"
    }
}
