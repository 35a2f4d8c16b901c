import ParleyCore
import Postgres

/// The messages retention removes (API.md §14.3), oldest first, locked for the batch that
/// removes them (rows another transaction holds are left for the next batch).
public struct RetentionRepository {
    let connection: PostgresConnection

    public struct Expired: Sendable {
        public let messageID: Int64
        public let channelURL: String
        public let kind: ChannelKind
        public let parentMessageID: Int64?
        public let senderID: String?
    }

    /// Messages of channels with their own retention (API.md §14.3) older than it, oldest first.
    public func expiredInChannels(now: Int64, limit: Int) throws -> [Expired] {
        try Self.expired(
            connection.query(
                """
                SELECT m.message_id, m.channel_url, m.channel_type, m.parent_message_id, m.sender_id
                FROM (
                    SELECT channel_url, message_retention_hours FROM group_channels WHERE message_retention_hours > 0
                    UNION ALL
                    SELECT channel_url, message_retention_hours FROM open_channels WHERE message_retention_hours > 0
                ) c JOIN messages m ON m.channel_url = c.channel_url
                WHERE m.created_at < $1 - c.message_retention_hours::bigint * 3600000
                    AND NOT m.is_removed
                ORDER BY m.created_at, m.message_id LIMIT $2 FOR UPDATE OF m SKIP LOCKED
                """,
                [now, Int64(limit)]))
    }

    /// Notes, for each disappearing-messages channel, how far every joined member has read now
    /// (a mark when that moved on), and forgets the marks a later expired one covers.
    public func markReads(now: Int64) throws {
        try connection.query(
            """
            WITH lowest AS (
                SELECT c.channel_url, c.message_survival_seconds,
                    (SELECT min(m.read_ts) FROM group_channel_members m WHERE m.channel_url = c.channel_url AND m.state = 'joined') AS read_ts
                FROM group_channels c WHERE c.message_survival_seconds > 0
            ), pruned AS (
                DELETE FROM channel_read_marks k USING lowest l
                WHERE k.channel_url = l.channel_url AND EXISTS (
                    SELECT 1 FROM channel_read_marks n WHERE n.channel_url = k.channel_url AND n.read_ts > k.read_ts
                        AND n.seen_at <= $1 - l.message_survival_seconds::bigint * 1000)
            )
            INSERT INTO channel_read_marks (channel_url, read_ts, seen_at)
            SELECT l.channel_url, l.read_ts, $1 FROM lowest l
            WHERE l.read_ts > COALESCE((SELECT max(k.read_ts) FROM channel_read_marks k WHERE k.channel_url = l.channel_url), 0)
            ON CONFLICT DO NOTHING
            """,
            [now])
    }

    /// Messages every joined member had read `message_survival_seconds` ago, oldest first.
    public func disappeared(now: Int64, limit: Int) throws -> [Expired] {
        try Self.expired(
            connection.query(
                """
                SELECT m.message_id, m.channel_url, m.channel_type, m.parent_message_id, m.sender_id
                FROM group_channels c
                CROSS JOIN LATERAL (
                    SELECT max(k.read_ts) AS read_ts FROM channel_read_marks k
                    WHERE k.channel_url = c.channel_url AND k.seen_at <= $1 - c.message_survival_seconds::bigint * 1000
                ) AS due
                JOIN messages m ON m.channel_url = c.channel_url AND m.created_at <= due.read_ts
                WHERE c.message_survival_seconds > 0 AND NOT m.is_removed
                ORDER BY m.created_at, m.message_id LIMIT $2 FOR UPDATE OF m SKIP LOCKED
                """,
                [now, Int64(limit)]))
    }

    public func expired(before cutoff: Int64, limit: Int) throws -> [Expired] {
        try connection.query(
            """
            SELECT message_id, channel_url, channel_type, parent_message_id, sender_id FROM messages
            WHERE created_at < $1 AND NOT is_removed ORDER BY created_at, message_id LIMIT $2 FOR UPDATE SKIP LOCKED
            """,
            [cutoff, Int64(limit)]
        ).map(Self.expired)
    }

    private static func expired(_ rows: PostgresResult) throws -> [Expired] {
        try rows.map(expired)
    }

    private static func expired(_ row: PostgresRow) throws -> Expired {
        Expired(
            messageID: try row.decode("message_id"), channelURL: try row.decode("channel_url"), kind: try row.decode("channel_type"),
            parentMessageID: try row.decodeIfPresent("parent_message_id"), senderID: try row.decodeIfPresent("sender_id"))
    }
}
