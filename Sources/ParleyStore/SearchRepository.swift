import ParleyCore
import Postgres

/// Message search (API.md §13.5) over the full-text index of migration 0033.
public struct SearchRepository {
    let connection: PostgresConnection

    /// The indexed expression and the index's condition, exactly as the index has them (else
    /// the planner cannot use it).
    static let document = "to_tsvector('english'::regconfig, parley_search_text(m.message))"
    static let indexed = "octet_length(m.message) <= 20000"

    /// The messages matching `search` that `viewerID` may read (nil: the admin, every message):
    /// those of the group channels they are a joined member of, from their reset history and
    /// hidden messages on, not hidden from them by a block, not removed. Newest first, or best
    /// first by score; `offset` into that order, at most `limit`.
    public func search(_ search: MessageSearch, viewerID: String?, offset: Int, limit: Int) throws -> [Message] {
        var sql = SQLBuilder()
        let viewer = sql.bind(viewerID)
        let text = sql.bind(search.advanced ? search.query : search.tsquery)
        let query =
            search.advanced
            ? "websearch_to_tsquery('english'::regconfig, parley_search_text(\(text)::text))"
            : "to_tsquery('english'::regconfig, \(text)::text)"
        sql.where("\(Self.document) @@ \(query)")
        sql.where(Self.indexed)
        sql.where("NOT m.is_removed")
        sql.where(MessageRows.visible(to: viewer))
        var from = MessageRows.from(viewer: viewer)
        if viewerID != nil {
            from += """
                 JOIN group_channel_members v ON v.channel_url = m.channel_url AND v.user_id = \(viewer)::text AND v.state = 'joined'
                """
            sql.where("m.created_at >= GREATEST(v.ts_message_offset, v.messages_hidden_before)")
        }
        if !search.advanced {
            for run in search.cjkRuns { sql.where("strpos(m.message, \(sql.bind(run))) > 0") }
        }
        if search.exactMatch { sql.where("strpos(lower(m.message), lower(\(sql.bind(search.query)))) > 0") }
        if let url = search.channelURL { sql.where("m.channel_url = \(sql.bind(url))") }
        if let type = search.customType { sql.where("m.custom_type = \(sql.bind(type))") }
        if let sender = search.senderID { sql.where("m.sender_id = \(sql.bind(sender))") }
        if let from = search.from { sql.where("m.created_at >= \(sql.bind(from))") }
        if let to = search.to { sql.where("m.created_at <= \(sql.bind(to))") }
        let order =
            search.byScore
            ? "ts_rank(\(Self.document), \(query)) DESC, m.created_at DESC, m.message_id DESC" : "m.created_at DESC, m.message_id DESC"
        let statement = """
            SELECT \(MessageRows.columns) FROM \(from) \(sql.whereClause)
            ORDER BY \(order) LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
            """
        return try MessageRows.decode(try connection.query(statement, sql.parameters))
    }
}
