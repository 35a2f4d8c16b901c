import ParleyCore
import Postgres

/// SQL for `message_dedup`: which message a sender's `dedup_id` made in a channel, for 24 hours.
public struct MessageDedupRepository {
    let connection: PostgresConnection

    /// Claims `dedupID` for a new send. Returns nil when the claim is new (go ahead and send),
    /// or the id of the message a send with the same id made within the last 24 hours (nil
    /// inside when that send has not committed a message). A concurrent identical send waits on
    /// the key until the first commits.
    public func claim(_ channelURL: String, senderID: String, dedupID: String, now: Int64) throws -> Int64?? {
        let claimed = try connection.query(
            """
            INSERT INTO message_dedup (channel_url, sender_id, dedup_id, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (channel_url, sender_id, dedup_id) DO UPDATE SET message_id = NULL, created_at = EXCLUDED.created_at
                WHERE message_dedup.created_at <= $4::bigint - 86400000
            RETURNING 1 AS claimed
            """,
            [channelURL, senderID, dedupID, now]
        )
        guard claimed.isEmpty else { return nil }
        let existing = try connection.query(
            "SELECT message_id FROM message_dedup WHERE channel_url = $1 AND sender_id = $2 AND dedup_id = $3",
            [channelURL, senderID, dedupID]
        )
        return .some(try existing.first?.decodeIfPresent("message_id", as: Int64.self))
    }

    /// Records the message a claimed `dedupID` made.
    public func complete(_ channelURL: String, senderID: String, dedupID: String, messageID: Int64) throws {
        try connection.query(
            "UPDATE message_dedup SET message_id = $4 WHERE channel_url = $1 AND sender_id = $2 AND dedup_id = $3",
            [channelURL, senderID, dedupID, messageID]
        )
    }

    /// The message a send with `dedupID` made and committed, if any.
    public func made(_ channelURL: String, senderID: String, dedupID: String) throws -> Int64? {
        try connection.query(
            "SELECT message_id FROM message_dedup WHERE channel_url = $1 AND sender_id = $2 AND dedup_id = $3 AND message_id IS NOT NULL",
            [channelURL, senderID, dedupID]
        ).first?.decode("message_id")
    }
}
