import ParleyCore
import Postgres

extension PushQueueRepository {
    /// The members who may receive these messages' pushes: joined, not the sender, with a device
    /// token (the cheap rules, kept in SQL so a 20,000-member channel's silent majority is never
    /// read), each with their tokens and total unread count (the badge), all in one statement.
    /// The other rules are decided on what each row says (`PushAudience`). Several messages are
    /// read at once, or one message's members a page at a time (`after` a user id, `limit`), by
    /// the members' primary key. `onlyDevices` limits a message's members to the owners of those
    /// devices, and their tokens to those (a retry).
    public func candidates(
        _ messages: [(id: Int64, channelURL: String, senderID: String?, onlyDevices: [RetriedDevice]?)], after: String = "",
        limit: Int? = nil
    ) throws -> [PushCandidate] {
        let rows = try connection.query(
            """
            WITH x AS (
                SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS x(message_id, channel_url, sender_id, only_devices)
            )
            SELECT x.message_id, m.user_id, u.nickname, u.file_key_generation, m.read_ts,
                m.push_trigger_option AS channel_push_trigger_option, m.push_sound AS channel_push_sound,
                b.blocker_id IS NOT NULL AS blocks_sender,
                EXISTS (SELECT 1 FROM event_sockets s WHERE s.user_id = m.user_id) AS online,
                t.types, t.tokens, t.p256dh, t.auth,
                (SELECT COALESCE(sum(\(ReceiptRepository.unreadExpression)), 0)
                 FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                 WHERE m.user_id = u.user_id AND m.state = 'joined' AND \(ReceiptRepository.messagesInTotals)) AS unread_total,
                p.user_id IS NOT NULL AS has_preference, \(PushPreferenceRepository.columns(of: "p"))
            FROM x JOIN group_channel_members m ON m.channel_url = x.channel_url AND m.state = 'joined'
                JOIN users u ON u.user_id = m.user_id
                CROSS JOIN LATERAL (
                    SELECT array_agg(t.token_type) AS types, array_agg(t.token) AS tokens,
                        array_agg(COALESCE(t.web_p256dh, '')) AS p256dh, array_agg(COALESCE(t.web_auth, '')) AS auth
                    FROM push_tokens t
                    WHERE t.user_id = m.user_id
                        AND (x.only_devices IS NULL OR t.token_type || ':' || t.token = ANY(string_to_array(x.only_devices, chr(31))))
                ) t
                LEFT JOIN user_blocks b ON b.blocker_id = m.user_id AND b.blocked_id = x.sender_id
                LEFT JOIN push_preferences p ON p.user_id = m.user_id
            WHERE m.user_id IS DISTINCT FROM x.sender_id AND t.tokens IS NOT NULL AND m.user_id > $5
            ORDER BY m.user_id
            LIMIT $6
            """,
            [
                messages.map(\.id), messages.map(\.channelURL), messages.map(\.senderID),
                messages.map { $0.onlyDevices?.map(\.key).joined(separator: "\u{1F}") }, after, limit.map(Int64.init)
            ]
        )
        return try rows.map { row in
            let preference = try row.decode("has_preference") ? try PushPreferenceRepository.decode(row) : PushPreference()
            let types: [String] = try row.decode("types")
            let tokens: [String] = try row.decode("tokens")
            let p256dh: [String] = try row.decode("p256dh")
            let auth: [String] = try row.decode("auth")
            let devices = tokens.indices.compactMap { index in
                PushTokenType(rawValue: types[index]).map { type in
                    PushToken(
                        type: type, token: tokens[index],
                        webKeys: type == .web ? WebPushKeys(p256dh: p256dh[index], auth: auth[index]) : nil)
                }
            }
            return PushCandidate(
                messageID: try row.decode("message_id"),
                audience: PushAudience.Candidate(
                    userID: try row.decode("user_id"), isOnline: try row.decode("online"), blocksSender: try row.decode("blocks_sender"),
                    preference: preference,
                    channelOption: ChannelPushTriggerOption(rawValue: try row.decode("channel_push_trigger_option")) ?? .default,
                    readAt: try row.decode("read_ts")),
                nickname: try row.decode("nickname"), fileKeyGeneration: try row.decode("file_key_generation"),
                channelSound: try row.decode("channel_push_sound"), tokens: devices,
                unreadMessageCount: Int(try row.decode("unread_total") as Int64))
        }
    }
}
