import ParleyCore
import Postgres

/// Read and delivery positions and unread counts (API.md §4.7).
///
/// A member's unread count is `channel.counted_seq - member.read_seq`, less the removed messages
/// after `read_seq`: a subtraction and a look at the (few) removed messages, never a scan of
/// the history, and exact for channels of any size. A message hidden from a member by a block
/// (API.md §7.3) took no sequence number, so it counts for nobody, and its removal corrects nothing.
public struct ReceiptRepository {
    let connection: PostgresConnection

    /// The unread count of member row `m` in channel row `c`, as SQL.
    static let unreadExpression = """
        (CASE WHEN m.state = 'joined' THEN c.counted_seq - m.read_seq - (SELECT count(*) FROM messages x
            WHERE x.channel_url = m.channel_url AND x.is_removed AND NOT x.is_silent AND x.hidden_from IS NULL
                AND x.counted_seq > m.read_seq) ELSE 0 END)
        """

    /// Whether a membership's unread messages go into the member's totals (its count
    /// preference, migration 0052); `mentionsInTotals` likewise for unread mentions.
    static let messagesInTotals = "m.count_preference IN ('all', 'unread_message_count_only')"
    static let mentionsInTotals = "m.count_preference IN ('all', 'unread_mentioned_count_only')"

    /// After a send: the mentioned joined members (every joined member for a channel mention)
    /// have one more unread mention, except the one it is hidden from.
    public func recordMentions(
        _ channelURL: String, senderID: String?, mentionType: MentionType, mentionedUserIDs: [String], hiddenFrom: String?
    ) throws {
        guard mentionType == .channel || !mentionedUserIDs.isEmpty else { return }
        try connection.query(
            """
            UPDATE group_channel_members SET unread_mentions = unread_mentions + 1
            WHERE channel_url = $1 AND state = 'joined' AND user_id IS DISTINCT FROM $2::text AND user_id IS DISTINCT FROM $5::text
              AND ($3::boolean OR user_id = ANY($4::text[]))
            """,
            [channelURL, senderID, mentionType == .channel, mentionedUserIDs, hiddenFrom]
        )
    }

    /// A removed message stops counting as an unread mention for those who had not read it.
    public func recordRemoval(_ removed: RemovedMessage) throws {
        guard !removed.isSilent, removed.mentionType == .channel || !removed.mentionedUserIDs.isEmpty else { return }
        try connection.query(
            """
            UPDATE group_channel_members SET unread_mentions = GREATEST(unread_mentions - 1, 0)
            WHERE channel_url = $1 AND read_seq < $2 AND ($3::boolean OR user_id = ANY($4::text[])) AND user_id IS DISTINCT FROM $5::text
            """,
            [removed.channelURL, removed.countedSeq, removed.mentionType == .channel, removed.mentionedUserIDs, removed.hiddenFrom]
        )
    }

    /// Marks the channel read up to `timestamp` (everything when nil); false when not a member.
    public func markRead(_ channelURL: String, _ userID: String, timestamp: Int64?, now: Int64) throws -> Bool {
        let seq: Int64
        if let timestamp {
            seq =
                try connection.query(
                    """
                    SELECT counted_seq FROM messages WHERE channel_url = $1 AND created_at <= $2
                    ORDER BY created_at DESC, message_id DESC LIMIT 1
                    """,
                    [channelURL, timestamp]
                ).first?.decode("counted_seq") ?? 0
        } else {
            seq =
                try connection.query("SELECT counted_seq FROM group_channels WHERE channel_url = $1", [channelURL])
                .first?.decode("counted_seq") ?? 0
        }
        // Mentions left unread are those after the new read position (only a partial read
        // needs to look; a full one clears them).
        let updated = try connection.query(
            """
            UPDATE group_channel_members m SET read_seq = GREATEST(m.read_seq, $3), read_ts = GREATEST(m.read_ts, $4),
                unread_mentions = CASE WHEN GREATEST(m.read_seq, $3) >= c.counted_seq THEN 0 ELSE
                    (SELECT count(*) FROM messages x WHERE x.channel_url = m.channel_url AND x.counted_seq > GREATEST(m.read_seq, $3)
                        AND NOT x.is_removed AND NOT x.is_silent AND x.sender_id IS DISTINCT FROM m.user_id
                        AND x.hidden_from IS DISTINCT FROM m.user_id
                        AND (x.mention_type = 'channel' OR m.user_id = ANY(x.mentioned_user_ids))) END
            FROM group_channels c
            WHERE m.channel_url = $1 AND m.user_id = $2 AND c.channel_url = m.channel_url
            """,
            [channelURL, userID, seq, min(timestamp ?? now, now)]
        )
        return updated.affectedRows == 1
    }

    /// Marks every channel of the user (or those named) read.
    public func markAllRead(_ userID: String, channelURLs: [String]?, now: Int64) throws -> [String] {
        // The channels that had something unread (read before the update: one snapshot for the
        // whole statement); their members are told of the new read position.
        try connection.query(
            """
            WITH unread AS (
                SELECT m.channel_url FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                WHERE m.user_id = $1 AND ($2::text[] IS NULL OR m.channel_url = ANY($2::text[]))
                    AND (m.read_seq < c.counted_seq OR m.unread_mentions > 0)
            ), marked AS (
                UPDATE group_channel_members m SET read_seq = c.counted_seq, read_ts = GREATEST(m.read_ts, $3), unread_mentions = 0
                FROM group_channels c
                WHERE m.user_id = $1 AND c.channel_url = m.channel_url AND ($2::text[] IS NULL OR m.channel_url = ANY($2::text[]))
            )
            SELECT channel_url FROM unread ORDER BY channel_url
            """,
            [userID, channelURLs, now]
        ).map { try $0.decode("channel_url") }
    }

    /// Everything sent so far counts as read (reset history, hide previous messages).
    public func markEverythingRead(_ channelURLs: [String], _ userID: String) throws {
        try connection.query(
            """
            UPDATE group_channel_members m SET read_seq = c.counted_seq, unread_mentions = 0
            FROM group_channels c
            WHERE m.channel_url = ANY($1::text[]) AND m.user_id = $2 AND c.channel_url = m.channel_url
            """,
            [channelURLs, userID]
        )
    }

    /// Records delivery now; returns the timestamp, or nil when not a member.
    public func markDelivered(_ channelURL: String, _ userID: String, now: Int64) throws -> Int64? {
        try connection.query(
            """
            UPDATE group_channel_members SET delivered_ts = GREATEST(delivered_ts, $3)
            WHERE channel_url = $1 AND user_id = $2 RETURNING delivered_ts
            """,
            [channelURL, userID, now]
        ).first?.decode("delivered_ts")
    }

    /// Unread counts of these users in one channel (members only).
    public func unreadCounts(_ channelURL: String, _ userIDs: [String]) throws -> [String: Int] {
        let rows = try connection.query(
            """
            SELECT m.user_id, \(Self.unreadExpression) AS unread
            FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.channel_url = $1 AND m.user_id = ANY($2::text[])
            """,
            [channelURL, userIDs]
        )
        var counts: [String: Int] = [:]
        for row in rows { counts[try row.decode("user_id")] = try row.decode("unread", as: Int.self) }
        return counts
    }

    /// The user's unread messages over all their joined channels whose count preference counts
    /// them, optionally of some custom types or only (non-)supergroups; and how many channels
    /// have any.
    public func userUnread(_ userID: String, customTypes: [String]?, superMode: TriStateMode) throws -> (messages: Int, channels: Int) {
        let superCondition =
            switch superMode {
            case .all: ""
            case .only: " AND c.is_super"
            case .excluded: " AND NOT c.is_super"
            }
        let row = try connection.query(
            """
            SELECT COALESCE(sum(u.unread), 0) AS messages, count(*) FILTER (WHERE u.unread > 0) AS channels
            FROM (SELECT \(Self.unreadExpression) AS unread
                  FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                  WHERE m.user_id = $1 AND m.state = 'joined' AND \(Self.messagesInTotals)
                      AND ($2::text[] IS NULL OR c.custom_type = ANY($2::text[]))\(superCondition)) AS u
            """,
            [userID, customTypes]
        )[0]
        return (try row.decode("messages"), try row.decode("channels"))
    }

    /// Each pair's unread counts in its channel and the user's total over their joined channels
    /// (for `unread_count_changed`): one statement for any number of pairs.
    public func unreadSummary(_ pairs: [UnreadPair]) throws -> [UnreadSummary] {
        let rows = try connection.query(
            """
            WITH pairs AS (SELECT * FROM unnest($1::text[], $2::text[]) AS p(user_id, channel_url)),
            mine AS (
                SELECT m.user_id, m.channel_url, \(Self.unreadExpression) AS unread, m.unread_mentions,
                    \(Self.messagesInTotals) AS in_totals
                FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                WHERE m.user_id IN (SELECT user_id FROM pairs) AND m.state = 'joined'
            ), totals AS (
                -- Summed once per user (a correlated sum per pair was quadratic in the pairs).
                SELECT user_id, sum(unread) FILTER (WHERE in_totals) AS total FROM mine GROUP BY user_id
            )
            SELECT p.user_id, p.channel_url, COALESCE(x.unread, 0) AS unread, COALESCE(x.unread_mentions, 0) AS mentions,
                COALESCE(t.total, 0) AS total
            FROM pairs p LEFT JOIN mine x ON x.user_id = p.user_id AND x.channel_url = p.channel_url
                LEFT JOIN totals t ON t.user_id = p.user_id
            """,
            [pairs.map(\.userID), pairs.map(\.channelURL)]
        )
        return try rows.map { row in
            UnreadSummary(
                userID: try row.decode("user_id"), channelURL: try row.decode("channel_url"), unreadMessages: try row.decode("unread"),
                unreadMentions: try row.decode("mentions"), totalUnreadMessages: try row.decode("total")
            )
        }
    }
}

/// A member of a channel whose unread counts are asked for.
public struct UnreadPair: Sendable, Hashable {
    public let userID: String
    public let channelURL: String

    public init(userID: String, channelURL: String) {
        self.userID = userID
        self.channelURL = channelURL
    }
}

/// A member's unread counts in one channel, and over all their joined channels.
public struct UnreadSummary: Sendable {
    public let userID: String
    public let channelURL: String
    public let unreadMessages: Int
    public let unreadMentions: Int
    public let totalUnreadMessages: Int
}
