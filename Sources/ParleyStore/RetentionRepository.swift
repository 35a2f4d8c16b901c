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

    public func expired(before cutoff: Int64, limit: Int) throws -> [Expired] {
        try connection.query(
            """
            SELECT message_id, channel_url, channel_type, parent_message_id, sender_id FROM messages
            WHERE created_at < $1 AND NOT is_removed ORDER BY created_at, message_id LIMIT $2 FOR UPDATE SKIP LOCKED
            """,
            [cutoff, Int64(limit)]
        ).map { row in
            Expired(
                messageID: try row.decode("message_id"), channelURL: try row.decode("channel_url"), kind: try row.decode("channel_type"),
                parentMessageID: try row.decodeIfPresent("parent_message_id"), senderID: try row.decodeIfPresent("sender_id"))
        }
    }
}
