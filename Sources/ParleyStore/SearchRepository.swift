import ParleyCore
import Postgres

/// Message search (API.md §13.5) over the stored search documents of migration 0050.
public struct SearchRepository {
    let connection: PostgresConnection

    /// Where a page of results starts.
    public enum Page: Sendable {
        /// Newest first, after the message at (`createdAt`, `messageID`) (nil: from the newest).
        case newest(after: (createdAt: Int64, messageID: Int64)?)
        /// Best first, from `offset` in that order, among the newest `ranked` matches.
        case best(offset: Int, ranked: Int)
    }

    /// The messages matching `search` that `viewerID` may read (nil: the admin, every message):
    /// those of the group channels they are a joined member of, from their reset history and
    /// hidden messages on, not hidden from them by a block, not removed; at most `limit`.
    ///
    /// What a search costs is bounded (issue 50.1): the score is computed from the stored
    /// document, and only for the newest `ranked` matches (ranking more made a score search of
    /// 20,000 hits take 18.7 s); pages by time are keyset, so a page deep in the results costs
    /// what the first does.
    public func search(_ search: MessageSearch, viewerID: String?, page: Page, limit: Int) throws -> [Message] {
        var sql = SQLBuilder()
        let viewer = sql.bind(viewerID)
        let text = sql.bind(search.advanced ? search.query : search.tsquery)
        let query =
            search.advanced
            ? "websearch_to_tsquery('english'::regconfig, parley_search_text(\(text)::text))"
            : "to_tsquery('english'::regconfig, \(text)::text)"
        sql.where("m.search_document @@ \(query)")
        sql.where("NOT m.is_removed")
        sql.where(MessageRows.visible(to: viewer))
        var scope = "messages m"
        if viewerID != nil {
            scope += """
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
        let newest = "m.created_at DESC, m.message_id DESC"
        let statement: String
        switch page {
        case .newest(let after):
            if let after {
                sql.where("(m.created_at, m.message_id) < (\(sql.bind(after.createdAt))::bigint, \(sql.bind(after.messageID))::bigint)")
            }
            statement = """
                SELECT \(MessageRows.columns) FROM \(scope) \(MessageRows.senderJoins(viewer: viewer))
                \(sql.whereClause) ORDER BY \(newest) LIMIT \(sql.bind(limit))
                """
        case .best(let offset, let ranked):
            // The matches are found and cut to the newest `ranked` without reading a document;
            // only those are scored, each from its stored document.
            statement = """
                SELECT \(MessageRows.columns) FROM (
                    SELECT m.message_id FROM \(scope) \(sql.whereClause) ORDER BY \(newest) LIMIT \(sql.bind(ranked))
                ) hit JOIN messages m ON m.message_id = hit.message_id \(MessageRows.senderJoins(viewer: viewer))
                ORDER BY ts_rank(m.search_document, \(query)) DESC, \(newest)
                LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
                """
        }
        return try MessageRows.decode(try connection.query(statement, sql.parameters))
    }
}
