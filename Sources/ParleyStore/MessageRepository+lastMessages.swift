import ParleyCore
import Postgres

/// The newest message of each channel in a list (API.md §3.1 `last_message`).
extension MessageRepository {
    /// The newest message of each channel that `viewerID` can read (one query for a whole page):
    /// a viewer reads a channel's messages only as a joined member, so for anyone else it is
    /// absent; with no viewer (the admin) it is the newest message. A reply only in its thread is
    /// not the channel's last message (API.md §13.1).
    public func lastMessages(_ channelURLs: [String], viewerID: String?) throws -> [String: Message] {
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns) FROM unnest($1::text[]) AS u(url)
            CROSS JOIN LATERAL (
                SELECT CASE WHEN $2::text IS NULL THEN 0 ELSE (
                    SELECT GREATEST(v.ts_message_offset, v.messages_hidden_before) FROM group_channel_members v
                    WHERE v.channel_url = u.url AND v.user_id = $2 AND v.state = 'joined') END AS visible_from) AS v
            CROSS JOIN LATERAL (
                SELECT * FROM messages lm
                WHERE lm.channel_url = u.url AND NOT lm.is_removed AND lm.created_at >= v.visible_from
                    AND \(MessageRows.visible(to: "$2", alias: "lm")) AND (lm.parent_message_id IS NULL OR lm.is_reply_to_channel)
                ORDER BY lm.created_at DESC, lm.message_id DESC LIMIT 1) AS m
            LEFT JOIN users su ON su.user_id = m.sender_id
            LEFT JOIN user_blocks vb ON vb.blocker_id = $2::text AND vb.blocked_id = m.sender_id
            """,
            [channelURLs, viewerID]
        )
        return Dictionary(try MessageRows.decode(rows).map { ($0.channelURL, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
