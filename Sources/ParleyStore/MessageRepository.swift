import ParleyCore
import Postgres

/// A removed message as its row was before the removal: what the unread mention counts need.
public struct RemovedMessage: Sendable {
    public let channelURL: String
    public let countedSeq: Int64
    public let isSilent: Bool
    public let mentionType: MentionType
    public let mentionedUserIDs: [String]
    public let hiddenFrom: String?
}

/// SQL for `messages`.
public struct MessageRepository {
    let connection: PostgresConnection
    /// The traced request's (`TraceParent`), for the push a send queues.
    var traceParent: String? = nil

    /// Stores a message: takes the channel's next sequence number (locking the channel row, so
    /// sends to one channel are ordered, each a millisecond or more after the one before, which
    /// keeps timestamp anchors unambiguous), records it as the channel's newest, and moves the
    /// member rows a new message moves (see the statement). `memberActivityThrottle` spares big
    /// channels from rewriting every member's sort key on every message.
    ///
    /// In a 1-to-1 channel whose other member blocks the sender, the message is stored hidden
    /// from that member (API.md §7.3): it takes no unread sequence number and moves nothing of
    /// theirs (list order, auto-unhide), so for them it never happened.
    public func insert(
        _ channelURL: String, _ new: NewMessage, sender: BasicUser?, isOperator: Bool, now: Int64, memberActivityThrottle: Int64
    ) throws -> Message {
        // One statement for all the writes, so that a send holds its connection (and the
        // channel row lock) for as few round trips as possible.
        let written = try connection.query(
            """
            WITH blocker AS (
                SELECT o.user_id FROM group_channels c
                JOIN group_channel_members o ON o.channel_url = c.channel_url AND o.user_id <> $3::text
                JOIN user_blocks b ON b.blocker_id = o.user_id AND b.blocked_id = $3::text
                WHERE c.channel_url = $1 AND c.member_count = 2 AND c.peak_member_count <= 2
            ), channel AS (
                UPDATE group_channels SET message_seq = message_seq + 1,
                    counted_seq = counted_seq + CASE WHEN $13 OR EXISTS (SELECT 1 FROM blocker) THEN 0 ELSE 1 END,
                    last_message_at = GREATEST($16::bigint, COALESCE(last_message_at, 0) + 1),
                    activity_at = GREATEST($16::bigint, COALESCE(last_message_at, 0) + 1)
                WHERE channel_url = $1 RETURNING message_seq, counted_seq, last_message_at
            ), inserted AS (
                INSERT INTO messages (message_id, channel_url, seq, counted_seq, message_type, sender_id, sender_nickname,
                    sender_profile_url, message, custom_type, data, mention_type, mentioned_user_ids, sorted_metaarray, is_silent,
                    is_op_msg, dedup_id, created_at, file, hidden_from, parent_message_id, is_reply_to_channel, poll_id)
                SELECT nextval('message_ids'), $1, channel.message_seq, channel.counted_seq, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                    $11::jsonb, $13, $14, $15, channel.last_message_at, $17::jsonb, (SELECT user_id FROM blocker), $19::bigint, $20, $21::bigint
                FROM channel
                RETURNING message_id, counted_seq, created_at, hidden_from
            ), members AS (
                -- The sender has now read everything, hidden-with-auto-unhide comes back, and the
                -- list sort key moves (throttled for big channels).
                UPDATE group_channel_members m SET activity_at = GREATEST(m.activity_at, inserted.created_at),
                    hidden_state = CASE WHEN m.hidden_state = 1 AND m.user_id IS DISTINCT FROM $3::text THEN 0 ELSE m.hidden_state END,
                    read_seq = CASE WHEN m.user_id = $3::text THEN inserted.counted_seq ELSE m.read_seq END,
                    read_ts = CASE WHEN m.user_id = $3::text THEN GREATEST(m.read_ts, inserted.created_at) ELSE m.read_ts END,
                    unread_mentions = CASE WHEN m.user_id = $3::text THEN 0 ELSE m.unread_mentions END
                FROM inserted
                WHERE m.channel_url = $1 AND m.user_id IS DISTINCT FROM inserted.hidden_from
                  AND (m.activity_at < inserted.created_at - $12::bigint
                       OR (m.hidden_state = 1 AND m.user_id IS DISTINCT FROM $3::text) OR m.user_id = $3::text)
            ), queued AS (
                -- Its push, decided per recipient when an instance claims it (API.md §12.6).
                INSERT INTO push_queue (message_id, channel_url, created_at, next_attempt_at, traceparent)
                SELECT message_id, $1, created_at, created_at, $22 FROM inserted WHERE $18::boolean
            )
            SELECT message_id, created_at, hidden_from FROM inserted
            """,
            [
                channelURL, new.type.rawValue, sender?.userID, sender?.nickname ?? "", sender?.profileURL ?? "",
                new.message, new.customType, new.data, new.mentionType.rawValue, new.mentionedUserIDs,
                try Self.storedMetaarray(new.sortedMetaarray), memberActivityThrottle, new.isSilent, isOperator, new.dedupID, now,
                try new.file.map(JSONColumn.text), !new.isSilent && new.sendsPush, new.parentMessageID, new.isReplyToChannel,
                new.pollID, traceParent
            ]
        )
        return Message(
            sent: new, messageID: try written[0].decode("message_id"), channelURL: channelURL, sender: sender,
            isOperator: isOperator, createdAt: try written[0].decode("created_at"),
            hiddenFrom: try written[0].decodeIfPresent("hidden_from")
        )
    }

    /// A message's meta array as stored: most messages have none, and `JSONEncoder` for `[]` was
    /// 2 % of the server's CPU under sends.
    static func storedMetaarray(_ metaarray: [MetaArray]) throws -> String {
        metaarray.isEmpty ? "[]" : try JSONColumn.text(metaarray)
    }

    /// Stores a message of an open channel: the channel row hands out its sequence number and
    /// time as in a group channel; there are no members to move (no unread counts, API.md §8).
    public func insertOpen(_ channelURL: String, _ new: NewMessage, sender: BasicUser?, isOperator: Bool, now: Int64) throws -> Message {
        let written = try connection.query(
            """
            WITH channel AS (
                UPDATE open_channels SET message_seq = message_seq + 1,
                    last_message_at = GREATEST($15::bigint, COALESCE(last_message_at, 0) + 1)
                WHERE channel_url = $1 RETURNING message_seq, last_message_at
            )
            INSERT INTO messages (message_id, channel_url, channel_type, seq, counted_seq, message_type, sender_id, sender_nickname,
                sender_profile_url, message, custom_type, data, mention_type, mentioned_user_ids, sorted_metaarray, is_silent,
                is_op_msg, dedup_id, created_at, file, parent_message_id, is_reply_to_channel, poll_id)
            SELECT nextval('message_ids'), $1, 'open', channel.message_seq, 0, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                $11::jsonb, $12, $13, $14, channel.last_message_at, $16::jsonb, $17::bigint, $18, $19::bigint
            FROM channel
            RETURNING message_id, created_at
            """,
            [
                channelURL, new.type.rawValue, sender?.userID, sender?.nickname ?? "", sender?.profileURL ?? "",
                new.message, new.customType, new.data, new.mentionType.rawValue, new.mentionedUserIDs,
                try Self.storedMetaarray(new.sortedMetaarray), new.isSilent, isOperator, new.dedupID, now,
                try new.file.map(JSONColumn.text), new.parentMessageID, new.isReplyToChannel, new.pollID
            ]
        )
        return Message(
            sent: new, messageID: try written[0].decode("message_id"), channelURL: channelURL, sender: sender,
            isOperator: isOperator, createdAt: try written[0].decode("created_at"), channelKind: .open
        )
    }

    /// A fresh message id, for a message of an ephemeral channel (numbered, stored nowhere).
    public func nextID() throws -> Int64 {
        try connection.query("SELECT nextval('message_ids') AS id")[0].decode("id")
    }

    /// The message as `viewerID` reads it (nil: as the admin); nil when it is not in the channel
    /// or hidden from them.
    public func find(_ channelURL: String, _ messageID: Int64, viewerID: String?) throws -> Message? {
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns) FROM \(MessageRows.from(viewer: "$3"))
            WHERE m.channel_url = $1 AND m.message_id = $2 AND \(MessageRows.visible(to: "$3"))
            """,
            [channelURL, messageID, viewerID]
        )
        return try MessageRows.decode(rows).first
    }

    /// Which of these messages have been removed since.
    public func removed(among messageIDs: [Int64]) throws -> Set<Int64> {
        guard !messageIDs.isEmpty else { return [] }
        return Set(
            try connection.query(
                "SELECT message_id FROM messages WHERE message_id = ANY($1::bigint[]) AND is_removed", [messageIDs.map(String.init)]
            ).map { try $0.decode("message_id") as Int64 })
    }

    /// The messages `viewer` may see, removed ones excluded.
    public func count(_ channelURL: String, viewer: MessageViewer) throws -> Int {
        try connection.query(
            """
            SELECT count(*) AS n FROM messages m
            WHERE m.channel_url = $1 AND m.created_at >= $2 AND NOT m.is_removed AND \(MessageRows.visible(to: "$3"))
            """,
            [channelURL, viewer.visibleFrom, viewer.userID]
        )[0].decode("n")
    }

    /// Locks the channel's message row until the transaction ends, so read-modify-write changes
    /// serialise. Only for a message the caller was found allowed to change.
    public func lock(_ channelURL: String, _ messageID: Int64) throws {
        try connection.query("SELECT 1 FROM messages WHERE channel_url = $1 AND message_id = $2 FOR UPDATE", [channelURL, messageID])
    }

    /// Replaces the message's sorted meta array.
    public func setMetaarray(_ messageID: Int64, _ metaarray: [MetaArray], now: Int64) throws {
        try connection.query(
            "UPDATE messages SET sorted_metaarray = $2::jsonb, updated_at = $3, changed_at = $3 WHERE message_id = $1",
            [messageID, try JSONColumn.text(metaarray), now]
        )
    }

    /// Applies an edit; a new text drops the translations of the old one (the caller stores the
    /// new ones).
    public func update(_ messageID: Int64, _ update: MessageUpdate, now: Int64) throws {
        try connection.query(
            """
            UPDATE messages SET message = COALESCE($2, message), custom_type = COALESCE($3, custom_type),
                data = COALESCE($4, data), mention_type = COALESCE($5, mention_type),
                mentioned_user_ids = COALESCE($6::text[], mentioned_user_ids), updated_at = $7, changed_at = $7,
                translations = CASE WHEN $2::text IS DISTINCT FROM NULL AND $2::text <> message THEN NULL ELSE translations END,
                og_tag = CASE WHEN $2::text IS DISTINCT FROM NULL AND $2::text <> message THEN NULL ELSE og_tag END
            WHERE message_id = $1
            """,
            [messageID, update.message, update.customType, update.data, update.mentionType?.rawValue, update.mentionedUserIDs, now]
        )
    }

    /// Adds translations of the message's text (API.md §9), if its text is still `source` (a
    /// late translation of an edited message is dropped); true when they were stored. With
    /// `now`, the message changelog lists the message again (`changed_at`), for translations
    /// that arrive after the message went out; `updated_at`, the edit time clients show, stays.
    public func addTranslations(_ messageID: Int64, _ translations: [String: String], source: String, now: Int64?) throws -> Bool {
        guard !translations.isEmpty else { return false }
        return try !connection.query(
            """
            UPDATE messages SET translations = COALESCE(translations, '{}'::jsonb) || $2::jsonb, changed_at = GREATEST(changed_at, COALESCE($4, changed_at))
            WHERE message_id = $1 AND message = $3 AND NOT is_removed
            RETURNING message_id
            """,
            [messageID, try JSONColumn.text(translations), source, now]
        ).isEmpty
    }

    /// Sets the link preview of the message's text, if its text is still `source`; true when stored.
    public func setOGTag(_ messageID: Int64, _ tag: OGTag, source: String, now: Int64) throws -> Bool {
        try !connection.query(
            """
            UPDATE messages SET og_tag = $2::jsonb, changed_at = GREATEST(changed_at, $4)
            WHERE message_id = $1 AND message = $3 AND NOT is_removed RETURNING message_id
            """,
            [messageID, try JSONColumn.text(tag), source, now]
        ).isEmpty
    }

    /// Soft delete: the content goes, the row stays for admins and for sequence numbers. Returns
    /// the row as it was, or nil when it was removed already.
    public func markRemoved(_ messageID: Int64, now: Int64) throws -> RemovedMessage? {
        try connection.query(
            """
            UPDATE messages m SET is_removed = true, message = '', data = '', custom_type = '', mentioned_user_ids = '{}',
                sorted_metaarray = '[]', file = NULL, translations = NULL, og_tag = NULL, updated_at = $2, changed_at = $2
            FROM messages old WHERE m.message_id = $1 AND old.message_id = m.message_id AND NOT old.is_removed
            RETURNING m.channel_url, m.counted_seq, m.is_silent, old.mention_type, old.mentioned_user_ids, m.hidden_from
            """,
            [messageID, now]
        ).first.map { row in
            RemovedMessage(
                channelURL: try row.decode("channel_url"), countedSeq: try row.decode("counted_seq"),
                isSilent: try row.decode("is_silent"), mentionType: try row.decode("mention_type"),
                mentionedUserIDs: try row.decode("mentioned_user_ids"), hiddenFrom: try row.decodeIfPresent("hidden_from")
            )
        }
    }

}
