import ParleyCore
import Postgres

/// History windows (API.md §4.3), with the byte budget of issue 29.1.
extension MessageRepository {
    /// A window of history around the anchor, as `viewer` may see it; nil when the anchor message
    /// is not in the channel.
    public func history(_ channelURL: String, _ query: HistoryQuery, viewer: MessageViewer) throws -> MessageWindow? {
        var anchorTS = query.anchorTimestamp
        var anchorID: Int64? = nil
        if let id = query.anchorMessageID {
            guard
                let anchor = try connection.query(
                    "SELECT created_at FROM messages WHERE channel_url = $1 AND message_id = $2", [channelURL, id]
                ).first
            else { return nil }
            anchorTS = try anchor.decode("created_at")
            anchorID = id
        }
        var sql = SQLBuilder()
        let viewerID = sql.bind(viewer.userID)
        sql.where("m.channel_url = \(sql.bind(channelURL))")
        sql.where("m.created_at >= \(sql.bind(viewer.visibleFrom))")
        sql.where(MessageRows.visible(to: viewerID))
        if !query.includeRemoved { sql.where("NOT m.is_removed") }
        if let type = query.messageType { sql.where("m.message_type = \(sql.bind(type.rawValue))") }
        if let types = query.customTypes { sql.where("m.custom_type = ANY(\(sql.bind(types))::text[])") }
        if let senders = query.senderIDs { sql.where("m.sender_id = ANY(\(sql.bind(senders))::text[])") }
        switch query.replies {
        case .none: sql.where("m.parent_message_id IS NULL")
        case .all: break
        case .onlyReplyToChannel: sql.where("(m.parent_message_id IS NULL OR m.is_reply_to_channel)")
        case .thread(let parentID): sql.where("m.parent_message_id = \(sql.bind(parentID))")
        }
        // The window is the prev_limit messages before the anchor, the anchor itself when
        // `include` (the message, or every message at exactly the timestamp), and the
        // next_limit messages after it; a message anchor splits on (created_at, message_id).
        let ts = sql.bind(anchorTS)
        let key = "(m.created_at, m.message_id)"
        let anchor = anchorID.map { "(\(ts)::bigint, \(sql.bind($0))::bigint)" }
        let before = anchor.map { "\(key) < \($0)" } ?? "m.created_at < \(ts)"
        let after = anchor.map { "\(key) > \($0)" } ?? "m.created_at > \(ts)"
        let at = anchor.map { "\(key) = \($0)" } ?? "m.created_at = \(ts)"
        let from = "FROM \(MessageRows.from(viewer: viewerID)) \(sql.whereClause)"
        // Each side holds at most its share of the byte budget, counted outward from the anchor,
        // so a cut window keeps the messages nearest the anchor and its client pages on from the
        // last one it got; the first message of a side always comes, whatever its size.
        let (prevBudget, nextBudget) = Self.budgets(query)
        // The poll a message carries counts as stored with it (its options' texts: issue 50.2).
        let rowBytes = "(\(MessageRows.storedBytes) + \(MessageRows.pollBytes))"
        func side(_ condition: String, _ order: String, limit: Int, budget: Int) -> String {
            """
            SELECT * FROM (
                SELECT \(MessageRows.columns), \(rowBytes) AS row_bytes, sum(\(rowBytes)) OVER (ORDER BY \(order)) AS window_bytes
                \(from) AND \(condition) ORDER BY \(order) LIMIT \(sql.bind(limit))
            ) side WHERE side.window_bytes - side.row_bytes < \(sql.bind(budget))
            """
        }
        // Only the parts asked for: a side with LIMIT 0 still made the plan's estimate (a LIMIT
        // parameter counts as a tenth of the channel) so high that PostgreSQL planned the
        // statement anew on every execution, 0.8 ms a page (issue 32).
        var parts: [String] = []
        if query.prevLimit > 0 {
            parts.append(side(before, "m.created_at DESC, m.message_id DESC", limit: query.prevLimit, budget: prevBudget))
        }
        if query.nextLimit > 0 { parts.append(side(after, "m.created_at, m.message_id", limit: query.nextLimit, budget: nextBudget)) }
        if query.include { parts.append("SELECT \(MessageRows.columns), 0, 0 \(from) AND \(at)") }
        guard !parts.isEmpty else { return MessageWindow(oldestFirst: [], before: 0, reversed: query.reverse) }
        let statement = parts.map { "(\($0))" }.joined(separator: "\nUNION ALL\n")
        let rows = try MessageRows.decode(try connection.query(statement, sql.parameters))
        // Sorted by position, not by moving the messages themselves (they are large).
        let order = rows.indices.sorted { (rows[$0].createdAt, rows[$0].messageID) < (rows[$1].createdAt, rows[$1].messageID) }
        // The previous side: the rows before the anchor.
        let older = rows.count { row in anchorID.map { (row.createdAt, row.messageID) < (anchorTS, $0) } ?? (row.createdAt < anchorTS) }
        return MessageWindow(oldestFirst: order.map { rows[$0] }, before: older, reversed: query.reverse)
    }

    /// The byte budget of each side of a window, in proportion to the messages it asks for.
    static func budgets(_ query: HistoryQuery) -> (prev: Int, next: Int) {
        let asked = query.prevLimit + query.nextLimit
        guard query.maxBytes > 0, asked > 0 else { return (Int(Int32.max), Int(Int32.max)) }
        let prev = query.maxBytes * query.prevLimit / asked
        return (prev, query.maxBytes - prev)
    }
}
