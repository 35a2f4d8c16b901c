import ParleyCore
import Postgres

/// The push queue (`push_queue`, migration 0024, and `push_retries`, 0026). Rows are written by
/// the send's statement (`MessageRepository.insert`); this is what the dispatcher does with them:
/// claims with a lease, the reads that decide and write the pushes, and the outcomes.
public struct PushQueueRepository {
    let connection: PostgresConnection

    /// Drops the pushes (and retries) of messages sent more than `limit` ms ago by the
    /// database's clock (one clock for every instance): a chat push that could not go out within
    /// its limit is worse than none (API.md §12.6). Returns how many went.
    public func dropExpired(olderThanMillis limit: Int64) throws -> Int {
        let cutoff = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1"
        let retries = try connection.query("DELETE FROM push_retries WHERE created_at < \(cutoff)", [limit]).affectedRows
        return try connection.query("DELETE FROM push_queue WHERE created_at < \(cutoff)", [limit]).affectedRows + retries
    }

    /// Claims up to `limit` due messages for this instance until `leaseUntil`; rows another
    /// instance holds are skipped, not waited for.
    public func claim(now: Int64, leaseUntil: Int64, limit: Int) throws -> [ClaimedPush] {
        try connection.query(
            """
            UPDATE push_queue q SET claimed_until = $2, attempts = q.attempts + 1
            WHERE q.message_id IN (
                SELECT message_id FROM push_queue WHERE next_attempt_at <= $1 AND claimed_until <= $1
                ORDER BY next_attempt_at, message_id LIMIT $3 FOR UPDATE SKIP LOCKED)
            RETURNING q.message_id, q.created_at, q.traceparent
            """,
            [now, leaseUntil, Int64(limit)]
        ).map { row in
            ClaimedPush(
                messageID: try row.decode("message_id"), createdAt: try row.decode("created_at"), devices: nil,
                traceParent: try row.decodeIfPresent("traceparent"))
        }
    }

    /// Claims due retries, grouped by message: each claimed push names its devices.
    public func claimRetries(now: Int64, leaseUntil: Int64, limit: Int) throws -> [ClaimedPush] {
        let rows = try connection.query(
            """
            UPDATE push_retries r SET claimed_until = $2
            WHERE (r.message_id, r.token_type, r.token) IN (
                SELECT message_id, token_type, token FROM push_retries WHERE next_attempt_at <= $1 AND claimed_until <= $1
                ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
            RETURNING r.message_id, r.created_at, r.token_type, r.token, r.attempts
            """,
            [now, leaseUntil, Int64(limit)]
        )
        var byMessage: [Int64: ClaimedPush] = [:]
        for row in rows {
            let messageID: Int64 = try row.decode("message_id")
            let device = RetriedDevice(
                type: try row.decode("token_type"), token: try row.decode("token"), attempts: Int(try row.decode("attempts") as Int64))
            let createdAt: Int64 = try row.decode("created_at")
            byMessage[messageID, default: ClaimedPush(messageID: messageID, createdAt: createdAt, devices: [])].devices?.append(device)
        }
        return byMessage.values.sorted { $0.messageID < $1.messageID }
    }

    /// The messages (as stored, not removed or not) and their channels, for the claimed pushes.
    public func messages(_ ids: [Int64]) throws -> [Int64: PushMessage] {
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns), c.name AS channel_name, c.custom_type AS channel_custom_type, c.is_super,
                c.joined_member_count
            FROM \(MessageRows.from(viewer: "NULL")) JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.message_id = ANY($1::bigint[])
            """,
            [ids.map(String.init)]
        )
        let messages = try MessageRows.decode(rows)
        var result: [Int64: PushMessage] = [:]
        for (message, row) in zip(messages, rows) {
            result[message.messageID] = PushMessage(
                message: message, channelName: try row.decode("channel_name"), channelCustomType: try row.decode("channel_custom_type"),
                isSuper: try row.decode("is_super"), joinedMemberCount: Int(try row.decode("joined_member_count") as Int64))
        }
        return result
    }

    /// Opens a windowed channel's push window at `now` unless a push went out less than
    /// `window` ms ago: true when this push opened it. Atomic, so two instances dispatching two
    /// messages of one channel cannot both open it.
    public func openWindow(_ channelURL: String, now: Int64, window: Int64) throws -> Bool {
        try connection.query(
            """
            INSERT INTO push_windows (channel_url, last_push_at) VALUES ($1, $2)
            ON CONFLICT (channel_url) DO UPDATE SET last_push_at = EXCLUDED.last_push_at
                WHERE push_windows.last_push_at <= EXCLUDED.last_push_at - $3
            """,
            [channelURL, now, window]
        ).affectedRows == 1
    }

    /// Records a round: the claimed pushes done (their queue rows and retried devices go), the
    /// devices to retry, and the tokens their providers declared dead.
    public func finish(_ outcome: PushRoundOutcome) throws {
        if !outcome.doneMessages.isEmpty {
            try connection.query("DELETE FROM push_queue WHERE message_id = ANY($1::bigint[])", [outcome.doneMessages.map(String.init)])
        }
        if !outcome.doneRetries.isEmpty {
            try connection.query(
                """
                DELETE FROM push_retries WHERE (message_id, token_type, token) IN (
                    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[]))
                """,
                [outcome.doneRetries.map { String($0.messageID) }, outcome.doneRetries.map(\.type), outcome.doneRetries.map(\.token)])
        }
        if !outcome.retries.isEmpty {
            let retries = outcome.retries
            try connection.query(
                """
                INSERT INTO push_retries (message_id, token_type, token, created_at, attempts, next_attempt_at)
                SELECT r.* FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::bigint[])
                    AS r(message_id, token_type, token, created_at, attempts, next_attempt_at)
                -- A message deleted meanwhile (its channel went) has nothing to retry; without the
                -- join its foreign key would fail the round's record, and the round be pushed again.
                WHERE EXISTS (SELECT 1 FROM messages m WHERE m.message_id = r.message_id)
                ON CONFLICT (message_id, token_type, token) DO UPDATE SET attempts = EXCLUDED.attempts,
                    next_attempt_at = EXCLUDED.next_attempt_at, claimed_until = 0
                """,
                [
                    retries.map { String($0.messageID) }, retries.map(\.type), retries.map(\.token), retries.map { String($0.createdAt) },
                    retries.map { String($0.attempts) }, retries.map { String($0.nextAttemptAt) }
                ])
        }
        if !outcome.deadTokens.isEmpty {
            try connection.query(
                "DELETE FROM push_tokens WHERE (token_type, token) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
                [outcome.deadTokens.map(\.type.rawValue), outcome.deadTokens.map(\.token)])
        }
    }

    /// Pushes waiting: queued messages and devices to retry (the queue-depth gauge).
    public func pendingCount() throws -> Int {
        Int(
            try connection.query("SELECT (SELECT count(*) FROM push_queue) + (SELECT count(*) FROM push_retries) AS n")[0].decode("n")
                as Int64)
    }
}
