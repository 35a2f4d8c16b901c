import ParleyCore
import Postgres

/// SQL for `scheduled_messages` (API.md §13.3).
public struct ScheduledMessageRepository {
    let connection: PostgresConnection

    /// Stores a message to send at `scheduledAt`; returns its id.
    public func insert(_ channelURL: String, _ content: NewMessage, senderID: String, scheduledAt: Int64, now: Int64) throws -> Int64 {
        try connection.query(
            """
            INSERT INTO scheduled_messages (channel_url, sender_id, message_type, message, custom_type, data, mention_type,
                mentioned_user_ids, sorted_metaarray, is_silent, send_push, file, target_langs, parent_message_id, is_reply_to_channel,
                scheduled_at, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $17)
            RETURNING scheduled_message_id
            """,
            [
                channelURL, senderID, content.type.rawValue, content.message, content.customType, content.data,
                content.mentionType.rawValue, content.mentionedUserIDs, try JSONColumn.text(content.sortedMetaarray), content.isSilent,
                content.sendsPush, try content.file.map(JSONColumn.text), content.targetLanguages, content.parentMessageID,
                content.isReplyToChannel, scheduledAt, now
            ]
        )[0].decode("scheduled_message_id")
    }

    /// Replaces a pending message's content and time, unless an instance is sending it right
    /// now; false then.
    public func update(_ id: Int64, _ content: NewMessage, scheduledAt: Int64, now: Int64) throws -> Bool {
        try connection.query(
            """
            UPDATE scheduled_messages SET message = $2, custom_type = $3, data = $4, mention_type = $5, mentioned_user_ids = $6,
                sorted_metaarray = $7::jsonb, is_silent = $8, send_push = $9, target_langs = $10, scheduled_at = $11, updated_at = $12
            WHERE scheduled_message_id = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < \(Self.now))
            """,
            [
                id, content.message, content.customType, content.data, content.mentionType.rawValue, content.mentionedUserIDs,
                try JSONColumn.text(content.sortedMetaarray), content.isSilent, content.sendsPush, content.targetLanguages,
                scheduledAt, now
            ]
        ).affectedRows == 1
    }

    /// The scheduled message, locked until the transaction ends with `forUpdate`.
    public func find(_ id: Int64, forUpdate: Bool = false) throws -> ScheduledMessage? {
        let lock = forUpdate ? "FOR UPDATE OF s" : ""
        return try Self.decode(
            connection.query("SELECT \(Self.columns) FROM \(Self.from) WHERE s.scheduled_message_id = $1 \(lock)", [id])
        ).first
    }

    /// The pending messages of a channel (for its limit; the caller holds the channel's lock).
    public func pendingCount(_ channelURL: String) throws -> Int {
        try connection.query(
            "SELECT count(*) AS n FROM scheduled_messages WHERE channel_url = $1 AND status = 'pending'", [channelURL]
        )[0].decode("n")
    }

    /// Those matching `filter`, in id order after `afterID`, at most `limit`.
    public func list(_ filter: ScheduledMessageFilter, afterID: Int64?, limit: Int) throws -> [ScheduledMessage] {
        var sql = SQLBuilder()
        Self.condition(filter, &sql)
        if let afterID { sql.where("s.scheduled_message_id > \(sql.bind(afterID))") }
        return try Self.decode(
            connection.query(
                "SELECT \(Self.columns) FROM \(Self.from) \(sql.whereClause) ORDER BY s.scheduled_message_id LIMIT \(sql.bind(limit))",
                sql.parameters))
    }

    public func count(_ filter: ScheduledMessageFilter) throws -> Int {
        var sql = SQLBuilder()
        Self.condition(filter, &sql)
        return try connection.query("SELECT count(*) AS n FROM scheduled_messages s \(sql.whereClause)", sql.parameters)[0].decode("n")
    }

    private static func condition(_ filter: ScheduledMessageFilter, _ sql: inout SQLBuilder) {
        if let channelURL = filter.channelURL { sql.where("s.channel_url = \(sql.bind(channelURL))") }
        if let senderID = filter.senderID { sql.where("s.sender_id = \(sql.bind(senderID))") }
        if let statuses = filter.statuses { sql.where("s.status = ANY(\(sql.bind(statuses.map(\.rawValue)))::text[])") }
        if let type = filter.messageType { sql.where("s.message_type = \(sql.bind(type.rawValue))") }
    }

    /// Cancels a pending message that no instance is sending right now; false otherwise.
    public func cancel(_ id: Int64, now: Int64) throws -> Bool {
        try connection.query(
            """
            UPDATE scheduled_messages SET status = 'canceled', updated_at = $2
            WHERE scheduled_message_id = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < \(Self.now))
            """,
            [id, now]
        ).affectedRows == 1
    }

    /// Whether any message is due and unclaimed: a plain read, so that an idle instance's poll
    /// takes no lock and writes nothing. "Now" is the database's, for every instance alike: an
    /// instance whose clock runs ahead sends nothing early.
    public func anyDue() throws -> Bool {
        try !connection.query(
            """
            SELECT 1 FROM scheduled_messages
            WHERE status = 'pending' AND scheduled_at <= \(Self.now) AND (claimed_until IS NULL OR claimed_until < \(Self.now)) LIMIT 1
            """
        ).isEmpty
    }

    /// The database's time in milliseconds, once per statement (so an index can use it).
    static let now = "(extract(epoch FROM statement_timestamp()) * 1000)::bigint"

    /// Claims up to `limit` due messages for `lease` milliseconds, oldest time first: no other
    /// instance takes them meanwhile; one whose lease ran out (its instance died) is due again.
    public func claim(lease: Int64, limit: Int) throws -> [ScheduledMessage] {
        try Self.decode(
            connection.query(
                """
                WITH claimed AS (
                    UPDATE scheduled_messages c SET claimed_until = \(Self.now) + $1, attempts = c.attempts + 1
                    FROM (SELECT scheduled_message_id FROM scheduled_messages
                        WHERE status = 'pending' AND scheduled_at <= \(Self.now) AND (claimed_until IS NULL OR claimed_until < \(Self.now))
                        ORDER BY scheduled_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
                    WHERE c.scheduled_message_id = due.scheduled_message_id
                    RETURNING c.*
                )
                SELECT \(Self.columns) FROM claimed s LEFT JOIN users u ON u.user_id = s.sender_id ORDER BY s.scheduled_at
                """,
                [lease, Int64(limit)]))
    }

    /// Sent as `messageID`.
    public func markSent(_ id: Int64, messageID: Int64, now: Int64) throws {
        try connection.query(
            """
            UPDATE scheduled_messages SET status = 'sent', message_id = $2, claimed_until = NULL, updated_at = $3
            WHERE scheduled_message_id = $1 AND status = 'pending'
            """,
            [id, messageID, now])
    }

    /// Refused as a live send would have been, with its code and message.
    @discardableResult
    public func markFailed(_ id: Int64, code: Int, reason: String, now: Int64) throws -> Bool {
        try connection.query(
            """
            UPDATE scheduled_messages SET status = 'failed', failure_code = $2, failure_reason = $3, claimed_until = NULL, updated_at = $4
            WHERE scheduled_message_id = $1 AND status = 'pending'
            """,
            [id, code, reason, now]
        ).affectedRows == 1
    }

    /// Not sent this time (the database or a limit of the moment): due again in `delay` ms.
    public func release(_ id: Int64, delay: Int64) throws {
        try connection.query(
            "UPDATE scheduled_messages SET claimed_until = \(Self.now) + $2 WHERE scheduled_message_id = $1 AND status = 'pending'",
            [id, delay])
    }

    static let from = "scheduled_messages s LEFT JOIN users u ON u.user_id = s.sender_id"
    static let columns = """
        s.scheduled_message_id, s.channel_url, s.sender_id, s.message_type, s.message, s.custom_type, s.data, s.mention_type,
        s.mentioned_user_ids, s.sorted_metaarray::text AS sorted_metaarray, s.is_silent, s.send_push, s.file::text AS file,
        s.target_langs, s.parent_message_id, s.is_reply_to_channel, s.scheduled_at, s.status, s.failure_code, s.failure_reason,
        s.message_id, s.attempts, s.created_at, s.updated_at, u.nickname, u.profile_url, u.is_active
        """

    static func decode(_ rows: PostgresResult) throws -> [ScheduledMessage] {
        try rows.map { row in
            let senderID: String = try row.decode("sender_id")
            var content = NewMessage(
                type: try row.decode("message_type"), senderID: senderID, message: try row.decode("message"),
                customType: try row.decode("custom_type"), data: try row.decode("data"), mentionType: try row.decode("mention_type"),
                mentionedUserIDs: try row.decode("mentioned_user_ids"),
                sortedMetaarray: try JSONColumn.value(try row.decode("sorted_metaarray")),
                isSilent: try row.decode("is_silent"),
                file: try row.decodeIfPresent("file", as: String.self).map { try JSONColumn.value($0) })
            content.sendsPush = try row.decode("send_push")
            content.targetLanguages = try row.decode("target_langs")
            content.parentMessageID = try row.decodeIfPresent("parent_message_id")
            content.isReplyToChannel = try row.decode("is_reply_to_channel")
            let sender = BasicUser(
                userID: senderID, nickname: try row.decodeIfPresent("nickname") ?? "",
                profileURL: try row.decodeIfPresent("profile_url") ?? "",
                isActive: try row.decodeIfPresent("is_active") ?? false)
            var scheduled = ScheduledMessage(
                scheduledMessageID: try row.decode("scheduled_message_id"), channelURL: try row.decode("channel_url"), sender: sender,
                content: content, scheduledAt: try row.decode("scheduled_at"), status: try row.decode("status"),
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
            scheduled.failureCode = try row.decodeIfPresent("failure_code", as: Int.self)
            scheduled.failureReason = try row.decodeIfPresent("failure_reason")
            scheduled.messageID = try row.decodeIfPresent("message_id")
            scheduled.attempts = try row.decode("attempts")
            return scheduled
        }
    }
}
