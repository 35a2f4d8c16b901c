import ParleyCore
import Postgres

/// The message columns every message read selects, and their decoding: the message as its row
/// holds it (reactions and mentioned users' profiles live in other tables).
enum MessageRows {
    static let columns = """
        m.message_id, m.channel_url, m.message_type, m.sender_id, m.sender_nickname, m.sender_profile_url,
        COALESCE(su.is_active, false) AS sender_is_active, m.message, m.custom_type, m.data, m.mention_type,
        m.mentioned_user_ids, m.sorted_metaarray::text AS sorted_metaarray, m.is_silent, m.is_op_msg, m.dedup_id,
        m.created_at, m.updated_at, m.is_removed, m.file::text AS file, m.hidden_from, m.channel_type, vb.blocker_id IS NOT NULL AS sender_blocked,
        m.translations::text AS translations, m.og_tag::text AS og_tag, m.parent_message_id, m.is_reply_to_channel,
        m.reply_count, m.last_replied_at, m.thread_updated_at, m.most_replies::text AS most_replies, m.poll_id
        """

    /// About what a message row holds, in bytes, for the history's byte budget: its texts as
    /// stored, and a fixed allowance for the rest (ids, times, the sender).
    static let storedBytes = """
        (octet_length(m.message) + octet_length(m.data) + octet_length(m.custom_type) + octet_length(m.sorted_metaarray::text)
            + COALESCE(octet_length(m.file::text), 0) + COALESCE(octet_length(m.translations::text), 0)
            + COALESCE(octet_length(m.og_tag::text), 0) + 256)
        """

    /// About what the poll a message carries holds, in bytes, for the same budget: its title,
    /// data and options' texts, and an allowance for each option's other fields.
    static let pollBytes = """
        (CASE WHEN m.poll_id IS NULL THEN 0 ELSE COALESCE((
            SELECT octet_length(p.title) + octet_length(p.data) + 256
                + (SELECT COALESCE(sum(octet_length(o.text) + 96), 0) FROM poll_options o WHERE o.poll_id = p.poll_id)
            FROM polls p WHERE p.poll_id = m.poll_id), 0) END)
        """

    /// The tables the columns come from, for the reader bound at `viewer` (a placeholder such as
    /// `$3`, whose value may be NULL for the admin): whether they block each sender.
    static func from(viewer: String) -> String {
        "messages m \(senderJoins(viewer: viewer))"
    }

    /// The joins of `from` after `messages m`: the sender, and whether the reader blocks them.
    static func senderJoins(viewer: String) -> String {
        """
        LEFT JOIN users su ON su.user_id = m.sender_id
            LEFT JOIN user_blocks vb ON vb.blocker_id = \(viewer)::text AND vb.blocked_id = m.sender_id
        """
    }

    /// The condition that keeps out the messages hidden from the reader bound at `viewer` (the
    /// admin, NULL, sees them all).
    static func visible(to viewer: String, alias: String = "m") -> String {
        "(\(alias).hidden_from IS NULL OR \(viewer)::text IS NULL OR \(alias).hidden_from <> \(viewer)::text)"
    }

    /// A parent's thread, once it has had a reply (`thread_updated_at` is then set).
    private static func threadInfo(_ row: PostgresRow, updatedAt: Int64) throws -> ThreadInfo {
        ThreadInfo(
            replyCount: try row.decode("reply_count"), lastRepliedAt: try row.decode("last_replied_at"), updatedAt: updatedAt,
            mostReplies: try row.decodeIfPresent("most_replies", as: String.self).map { try JSONColumn.value($0) } ?? [])
    }

    static func decode(_ rows: PostgresResult) throws -> [Message] {
        try rows.map { row in
            let senderID: String? = try row.decodeIfPresent("sender_id")
            let metaarrayText: String = try row.decode("sorted_metaarray")
            var message = Message(
                messageID: try row.decode("message_id"),
                type: try row.decode("message_type"),
                channelURL: try row.decode("channel_url"),
                sender: try senderID.map { id in
                    BasicUser(
                        userID: id, nickname: try row.decode("sender_nickname"),
                        profileURL: try row.decode("sender_profile_url"), isActive: try row.decode("sender_is_active"))
                },
                message: try row.decode("message"), customType: try row.decode("custom_type"), data: try row.decode("data"),
                mentionType: try row.decode("mention_type"), mentionedUserIDs: try row.decode("mentioned_user_ids"),
                sortedMetaarray: metaarrayText == "[]" ? [] : try JSONColumn.value(metaarrayText),
                isOpMsg: try row.decode("is_op_msg"), silent: try row.decode("is_silent"),
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"),
                isRemoved: try row.decode("is_removed"), dedupID: try row.decodeIfPresent("dedup_id"),
                file: try row.decodeIfPresent("file", as: String.self).map { try JSONColumn.value($0) },
                hiddenFrom: try row.decodeIfPresent("hidden_from"),
                channelKind: try row.decode("channel_type")
            )
            message.isSenderBlockedByViewer = try row.decode("sender_blocked")
            message.translations = try row.decodeIfPresent("translations", as: String.self).map { try JSONColumn.value($0) }
            message.ogTag = try row.decodeIfPresent("og_tag", as: String.self).map { try JSONColumn.value($0) }
            if let parentID: Int64 = try row.decodeIfPresent("parent_message_id") {
                (message.parentMessageID, message.isReplyToChannel) = (parentID, try row.decode("is_reply_to_channel"))
            }
            message.pollID = try row.decodeIfPresent("poll_id")
            let threadUpdatedAt: Int64 = try row.decode("thread_updated_at")
            if threadUpdatedAt > 0 { message.threadInfo = try threadInfo(row, updatedAt: threadUpdatedAt) }
            return message
        }
    }
}
