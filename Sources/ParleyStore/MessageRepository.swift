import Foundation
import ParleyCore
import Postgres

/// SQL for `messages` and `message_dedup`.
public struct MessageRepository {
    let connection: PostgresConnection

    static let columns = """
        m.message_id, m.channel_url, m.message_type, m.sender_id, m.sender_nickname, m.sender_profile_url,
        COALESCE(su.is_active, false) AS sender_is_active, m.message, m.custom_type, m.data, m.mention_type,
        m.mentioned_user_ids, m.sorted_metaarray::text AS sorted_metaarray, m.is_silent, m.is_op_msg, m.dedup_id,
        m.created_at, m.updated_at, m.is_removed, m.file::text AS file
        """
    static let from = "messages m LEFT JOIN users su ON su.user_id = m.sender_id"

    /// Claims `dedupID` for a new send. Returns nil when the claim is new (go ahead and send),
    /// or the id of the message a send with the same id made within the last 24 hours. A
    /// concurrent identical send waits on the key until the first commits, then gets its id.
    public func claimDedup(_ channelURL: String, senderID: String, dedupID: String, now: Int64) throws -> Int64?? {
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

    /// Stores a message: takes the channel's next sequence number (locking the channel row, so
    /// sends to one channel are ordered, each a millisecond or more after the one before, which
    /// keeps timestamp anchors unambiguous), records it as the channel's newest, and brings the
    /// channel back for members who hid it with auto-unhide. `memberActivityThrottle` spares
    /// big channels from rewriting every member's sort key on every message.
    public func append(
        _ channelURL: String, _ new: NewMessage, sender: BasicUser?, mentioned: [BasicUser], isOperator: Bool, now: Int64,
        memberActivityThrottle: Int64
    ) throws -> Message {
        let metaarray = String(decoding: try JSONEncoder().encode(new.sortedMetaarray), as: UTF8.self)
        let fileJSON = try new.file.map(Self.json)
        // One statement for all the writes, so that a send holds its connection (and the
        // channel row lock) for as few round trips as possible.
        let written = try connection.query(
            """
            WITH channel AS (
                UPDATE group_channels SET message_seq = message_seq + 1, counted_seq = counted_seq + CASE WHEN $13 THEN 0 ELSE 1 END,
                    last_message_at = GREATEST($16::bigint, COALESCE(last_message_at, 0) + 1),
                    activity_at = GREATEST($16::bigint, COALESCE(last_message_at, 0) + 1)
                WHERE channel_url = $1 RETURNING message_seq, counted_seq, last_message_at
            ), inserted AS (
                INSERT INTO messages (message_id, channel_url, seq, counted_seq, message_type, sender_id, sender_nickname,
                    sender_profile_url, message, custom_type, data, mention_type, mentioned_user_ids, sorted_metaarray, is_silent,
                    is_op_msg, dedup_id, created_at, file)
                SELECT nextval('message_ids'), $1, channel.message_seq, channel.counted_seq, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                    $11::jsonb, $13, $14, $15, channel.last_message_at, $17::jsonb
                FROM channel
                RETURNING message_id, counted_seq, created_at
            ), members AS (
                -- The sender has now read everything, hidden-with-auto-unhide comes back, and the
                -- list sort key moves (throttled for big channels).
                UPDATE group_channel_members m SET activity_at = GREATEST(m.activity_at, inserted.created_at),
                    hidden_state = CASE WHEN m.hidden_state = 1 AND m.user_id IS DISTINCT FROM $3::text THEN 0 ELSE m.hidden_state END,
                    read_seq = CASE WHEN m.user_id = $3::text THEN inserted.counted_seq ELSE m.read_seq END,
                    read_ts = CASE WHEN m.user_id = $3::text THEN GREATEST(m.read_ts, inserted.created_at) ELSE m.read_ts END,
                    unread_mentions = CASE WHEN m.user_id = $3::text THEN 0 ELSE m.unread_mentions END
                FROM inserted
                WHERE m.channel_url = $1
                  AND (m.activity_at < inserted.created_at - $12::bigint
                       OR (m.hidden_state = 1 AND m.user_id IS DISTINCT FROM $3::text) OR m.user_id = $3::text)
            )
            SELECT message_id, created_at FROM inserted
            """,
            [channelURL, new.type.rawValue, sender?.userID, sender?.nickname ?? "", sender?.profileURL ?? "",
             new.message, new.customType, new.data, new.mentionType.rawValue, new.mentionedUserIDs, metaarray,
             memberActivityThrottle, new.isSilent, isOperator, new.dedupID, now, fileJSON]
        )
        let messageID: Int64 = try written[0].decode("message_id")
        let createdAt: Int64 = try written[0].decode("created_at")
        try linkUpload(new.file, channelURL, messageID: messageID, now: now, json: fileJSON)
        if let dedupID = new.dedupID, let senderID = sender?.userID {
            try connection.query(
                "UPDATE message_dedup SET message_id = $4 WHERE channel_url = $1 AND sender_id = $2 AND dedup_id = $3",
                [channelURL, senderID, dedupID, messageID]
            )
        }
        // Silent messages count for nobody, mentions included.
        if !new.isSilent {
            try ReceiptRepository(connection: connection).recordMentions(
                channelURL, senderID: sender?.userID, mentionType: new.mentionType,
                mentionedUserIDs: Array(new.mentionedUserIDs.prefix(Validation.maxMentionedUsers))
            )
        }
        return Message(
            messageID: messageID, type: new.type, channelURL: channelURL, sender: sender, message: new.message,
            customType: new.customType, data: new.data, mentionType: new.mentionType, mentionedUsers: mentioned,
            sortedMetaarray: new.sortedMetaarray, isOpMsg: isOperator, silent: new.isSilent, createdAt: createdAt,
            updatedAt: 0, isRemoved: false, dedupID: new.dedupID, file: new.file
        )
    }

    /// A message for an ephemeral channel: it gets an id and a time, and is stored nowhere.
    public func ephemeral(
        _ channelURL: String, _ new: NewMessage, sender: BasicUser?, mentioned: [BasicUser], isOperator: Bool, now: Int64
    ) throws -> Message {
        let messageID: Int64 = try connection.query("SELECT nextval('message_ids') AS id")[0].decode("id")
        try linkUpload(new.file, channelURL, messageID: nil, now: now)
        return Message(
            messageID: messageID, type: new.type, channelURL: channelURL, sender: sender, message: new.message,
            customType: new.customType, data: new.data, mentionType: new.mentionType, mentionedUsers: mentioned,
            sortedMetaarray: new.sortedMetaarray, isOpMsg: isOperator, silent: new.isSilent, createdAt: now, updatedAt: 0,
            isRemoved: false, dedupID: new.dedupID, file: new.file
        )
    }

    /// Records which channel and message an uploaded file belongs to (external links have no
    /// row); `json` is the file as already encoded for the message, if it was.
    private func linkUpload(_ file: FileAttachment?, _ channelURL: String, messageID: Int64?, now: Int64, json: String? = nil) throws {
        guard let file, let fileID = file.fileID else { return }
        try FileRepository(connection: connection).insert(
            fileID: fileID, channelURL: channelURL, messageID: messageID, fileJSON: try json ?? Self.json(file), now: now
        )
    }

    private static func json(_ file: FileAttachment) throws -> String {
        String(decoding: try JSONEncoder().encode(file), as: UTF8.self)
    }

    public func find(_ channelURL: String, _ messageID: Int64) throws -> Message? {
        let rows = try connection.query(
            "SELECT \(Self.columns) FROM \(Self.from) WHERE m.channel_url = $1 AND m.message_id = $2", [channelURL, messageID]
        )
        return try decode(rows).first
    }

    /// A window of history around the anchor, oldest first, hiding messages before `visibleFrom`.
    public func history(_ channelURL: String, _ query: HistoryQuery, visibleFrom: Int64) throws -> [Message] {
        var anchorTS = query.anchorTimestamp
        var anchorID: Int64? = nil
        if let id = query.anchorMessageID {
            guard let anchor = try connection.query(
                "SELECT created_at FROM messages WHERE channel_url = $1 AND message_id = $2", [channelURL, id]
            ).first else { throw ParleyError.notFound("Message \(id) not found.") }
            anchorTS = try anchor.decode("created_at")
            anchorID = id
        }
        var sql = SQLBuilder()
        sql.where("m.channel_url = \(sql.bind(channelURL))")
        sql.where("m.created_at >= \(sql.bind(visibleFrom))")
        if !query.includeRemoved { sql.where("NOT m.is_removed") }
        if let type = query.messageType { sql.where("m.message_type = \(sql.bind(type.rawValue))") }
        if let types = query.customTypes { sql.where("m.custom_type = ANY(\(sql.bind(types))::text[])") }
        if let senders = query.senderIDs { sql.where("m.sender_id = ANY(\(sql.bind(senders))::text[])") }
        // The window is the prev_limit messages before the anchor, the anchor itself when
        // `include` (the message, or every message at exactly the timestamp), and the
        // next_limit messages after it; a message anchor splits on (created_at, message_id).
        let ts = sql.bind(anchorTS)
        let key = "(m.created_at, m.message_id)"
        let anchor = anchorID.map { "(\(ts)::bigint, \(sql.bind($0))::bigint)" }
        let before = anchor.map { "\(key) < \($0)" } ?? "m.created_at < \(ts)"
        let after = anchor.map { "\(key) > \($0)" } ?? "m.created_at > \(ts)"
        let at = anchor.map { "\(key) = \($0)" } ?? "m.created_at = \(ts)"
        let base = "SELECT \(Self.columns) FROM \(Self.from) \(sql.whereClause)"
        var statement = """
            (\(base) AND \(before) ORDER BY m.created_at DESC, m.message_id DESC LIMIT \(sql.bind(query.prevLimit)))
            UNION ALL
            (\(base) AND \(after) ORDER BY m.created_at, m.message_id LIMIT \(sql.bind(query.nextLimit)))
            """
        if query.include { statement += "\nUNION ALL\n(\(base) AND \(at))" }
        let messages = try decode(try connection.query(statement, sql.parameters))
            .sorted { ($0.createdAt, $0.messageID) < ($1.createdAt, $1.messageID) }
        return query.reverse ? messages.reversed() : messages
    }

    /// Messages visible from `visibleFrom` on, removed ones excluded.
    public func count(_ channelURL: String, visibleFrom: Int64) throws -> Int {
        try connection.query(
            "SELECT count(*) AS n FROM messages WHERE channel_url = $1 AND created_at >= $2 AND NOT is_removed",
            [channelURL, visibleFrom]
        )[0].decode("n")
    }

    /// Locks the channel's message row until the transaction ends, so read-modify-write changes
    /// serialise. Only for a message the caller was found allowed to change.
    public func lock(_ channelURL: String, _ messageID: Int64) throws {
        try connection.query("SELECT 1 FROM messages WHERE channel_url = $1 AND message_id = $2 FOR UPDATE", [channelURL, messageID])
    }

    /// Replaces the message's sorted meta array.
    public func setMetaarray(_ messageID: Int64, _ metaarray: [MetaArray], now: Int64) throws {
        let json = String(decoding: try JSONEncoder().encode(metaarray), as: UTF8.self)
        try connection.query(
            "UPDATE messages SET sorted_metaarray = $2::jsonb, updated_at = $3 WHERE message_id = $1", [messageID, json, now]
        )
    }

    public func update(_ messageID: Int64, _ update: MessageUpdate, now: Int64) throws {
        try connection.query(
            """
            UPDATE messages SET message = COALESCE($2, message), custom_type = COALESCE($3, custom_type),
                data = COALESCE($4, data), mention_type = COALESCE($5, mention_type),
                mentioned_user_ids = COALESCE($6::text[], mentioned_user_ids), updated_at = $7
            WHERE message_id = $1
            """,
            [messageID, update.message, update.customType, update.data, update.mentionType?.rawValue, update.mentionedUserIDs, now]
        )
    }

    /// Soft delete: the content goes (its uploaded files too: their ids are returned for the
    /// caller to delete after commit), the row stays for admins and for sequence numbers; it
    /// stops counting as an unread mention.
    @discardableResult
    public func remove(_ messageID: Int64, now: Int64) throws -> [String] {
        let fileIDs = try FileRepository(connection: connection).removeForMessage(messageID)
        let removed = try connection.query(
            """
            UPDATE messages m SET is_removed = true, message = '', data = '', custom_type = '', mentioned_user_ids = '{}',
                sorted_metaarray = '[]', file = NULL, updated_at = $2
            FROM messages old WHERE m.message_id = $1 AND old.message_id = m.message_id AND NOT old.is_removed
            RETURNING m.channel_url, m.counted_seq, m.is_silent, old.mention_type, old.mentioned_user_ids
            """,
            [messageID, now]
        )
        guard let row = removed.first else { return fileIDs }
        try ReceiptRepository(connection: connection).recordRemoval(
            try row.decode("channel_url"), countedSeq: try row.decode("counted_seq"), isSilent: try row.decode("is_silent"),
            mentionType: try row.decode("mention_type"), mentionedUserIDs: try row.decode("mentioned_user_ids", as: [String].self)
        )
        return fileIDs
    }

    /// The newest message of each channel that `viewerID` can read (one query for a whole page):
    /// a viewer reads a channel's messages only as a joined member, so for anyone else it is
    /// absent; with no viewer (the admin) it is the newest message.
    public func lastMessages(_ channelURLs: [String], viewerID: String?) throws -> [String: Message] {
        let rows = try connection.query(
            """
            SELECT \(Self.columns) FROM unnest($1::text[]) AS u(url)
            CROSS JOIN LATERAL (
                SELECT CASE WHEN $2::text IS NULL THEN 0 ELSE (
                    SELECT GREATEST(v.ts_message_offset, v.messages_hidden_before) FROM group_channel_members v
                    WHERE v.channel_url = u.url AND v.user_id = $2 AND v.state = 'joined') END AS visible_from) AS v
            CROSS JOIN LATERAL (
                SELECT * FROM messages lm
                WHERE lm.channel_url = u.url AND NOT lm.is_removed AND lm.created_at >= v.visible_from
                ORDER BY lm.created_at DESC, lm.message_id DESC LIMIT 1) AS m
            LEFT JOIN users su ON su.user_id = m.sender_id
            """,
            [channelURLs, viewerID]
        )
        return Dictionary(try decode(rows).map { ($0.channelURL, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Rows to messages, with mentioned users resolved in one query.
    private func decode(_ rows: PostgresResult) throws -> [Message] {
        var messages: [Message] = []
        var mentionedIDs: [[String]] = []
        for index in 0..<rows.count {
            let row = rows[index]
            let senderID: String? = try row.decodeIfPresent("sender_id")
            let metaarrayText: String = try row.decode("sorted_metaarray")
            let metaarray = metaarrayText == "[]" ? [] : try JSONDecoder().decode([MetaArray].self, from: Data(metaarrayText.utf8))
            mentionedIDs.append(try row.decode("mentioned_user_ids", as: [String].self))
            messages.append(Message(
                messageID: try row.decode("message_id"),
                type: MessageType(rawValue: try row.decode("message_type")) ?? .user,
                channelURL: try row.decode("channel_url"),
                sender: try senderID.map { id in
                    BasicUser(userID: id, nickname: try row.decode("sender_nickname"),
                              profileURL: try row.decode("sender_profile_url"), isActive: try row.decode("sender_is_active"))
                },
                message: try row.decode("message"), customType: try row.decode("custom_type"), data: try row.decode("data"),
                mentionType: MentionType(rawValue: try row.decode("mention_type")) ?? .users, mentionedUsers: [],
                sortedMetaarray: metaarray, isOpMsg: try row.decode("is_op_msg"), silent: try row.decode("is_silent"),
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"),
                isRemoved: try row.decode("is_removed"), dedupID: try row.decodeIfPresent("dedup_id"),
                file: try row.decodeIfPresent("file", as: String.self).map { try JSONDecoder().decode(FileAttachment.self, from: Data($0.utf8)) }
            ))
        }
        let reactions = try ReactionRepository(connection: connection).reactions(messages.map(\.messageID))
        for index in messages.indices { messages[index].reactions = reactions[messages[index].messageID] ?? [] }
        let allMentioned = Array(Set(mentionedIDs.flatMap { $0 }))
        guard !allMentioned.isEmpty else { return messages }
        let users = Dictionary(
            try GroupChannelReader(connection: connection).basicUsers(allMentioned).map { ($0.userID, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        for index in messages.indices {
            messages[index].mentionedUsers = mentionedIDs[index].compactMap { users[$0] }
        }
        return messages
    }
}
