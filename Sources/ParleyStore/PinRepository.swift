import ParleyCore
import Postgres

/// SQL for `pinned_messages` (API.md §13.2): a channel's pins, newest first.
public struct PinRepository {
    let connection: PostgresConnection

    /// Pins a message of the channel; false when it was pinned already.
    public func pin(_ channelURL: String, _ messageID: Int64, by userID: String?, now: Int64) throws -> Bool {
        try connection.query(
            """
            INSERT INTO pinned_messages (channel_url, message_id, pinned_by, pinned_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (channel_url, message_id) DO NOTHING
            """,
            [channelURL, messageID, userID, now]
        ).affectedRows == 1
    }

    /// Unpins a message; false when it was not pinned.
    public func unpin(_ channelURL: String, _ messageID: Int64) throws -> Bool {
        try connection.query("DELETE FROM pinned_messages WHERE channel_url = $1 AND message_id = $2", [channelURL, messageID])
            .affectedRows == 1
    }

    public func count(_ channelURL: String) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM pinned_messages WHERE channel_url = $1", [channelURL])[0].decode("n")
    }

    /// Each group channel's newest pinned message that `viewerID` can read (nil: the admin), one
    /// query for a page of channels: as for `last_message`, only a joined member reads it, and
    /// only from their first visible message on (`reset_user_history`, hidden history).
    public func lastPinned(_ channelURLs: [String], viewerID: String?) throws -> [String: Message] {
        guard !channelURLs.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns) FROM unnest($1::text[]) AS u(url)
            CROSS JOIN LATERAL (SELECT \(Self.visibleFrom("u.url", viewer: "$2")) AS visible_from) AS v
            CROSS JOIN LATERAL (
                SELECT lm.* FROM pinned_messages p JOIN messages lm ON lm.message_id = p.message_id
                WHERE p.channel_url = u.url AND NOT lm.is_removed AND lm.created_at >= v.visible_from
                    AND \(MessageRows.visible(to: "$2", alias: "lm"))
                ORDER BY p.pinned_at DESC, p.message_id DESC LIMIT 1) AS m
            LEFT JOIN users su ON su.user_id = m.sender_id
            LEFT JOIN user_blocks vb ON vb.blocker_id = $2::text AND vb.blocked_id = m.sender_id
            """,
            [channelURLs, viewerID]
        )
        return Dictionary(try MessageRows.decode(rows).map { ($0.channelURL, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A viewer's first visible message time in a group channel: 0 for the admin (no viewer),
    /// NULL for anyone not a joined member.
    private static func visibleFrom(_ channelURL: String, viewer: String) -> String {
        """
        CASE WHEN \(viewer)::text IS NULL THEN 0 ELSE (
            SELECT GREATEST(v.ts_message_offset, v.messages_hidden_before) FROM group_channel_members v
            WHERE v.channel_url = \(channelURL) AND v.user_id = \(viewer) AND v.state = 'joined') END
        """
    }

    /// The channel's pinned messages as `viewerID` reads them (nil: the admin), newest pin first,
    /// after the pin at `after` (its time and message id), at most `limit`.
    public func messages(_ channelURL: String, viewerID: String?, after: (pinnedAt: Int64, messageID: Int64)?, limit: Int) throws
        -> [(pinnedAt: Int64, message: Message)]
    {
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns), p.pinned_at
            FROM \(MessageRows.from(viewer: "$2")) JOIN pinned_messages p ON p.message_id = m.message_id AND p.channel_url = $1
            WHERE m.channel_url = $1 AND NOT m.is_removed AND \(MessageRows.visible(to: "$2"))
                AND m.created_at >= COALESCE(\(Self.visibleFrom("$1", viewer: "$2")), CASE WHEN m.channel_type = 'open' THEN 0 END)
                AND ($3::bigint IS NULL OR (p.pinned_at, p.message_id) < ($3::bigint, $4::bigint))
            ORDER BY p.pinned_at DESC, p.message_id DESC LIMIT $5
            """,
            [channelURL, viewerID, after?.pinnedAt, after?.messageID, Int64(limit)]
        )
        let messages = try MessageRows.decode(rows)
        return try zip(rows, messages).map { (try $0.decode("pinned_at"), $1) }
    }
}
