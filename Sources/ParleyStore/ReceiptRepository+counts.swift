import ParleyCore
import Postgres

/// A user's counts over their group channels and their count preferences (issue 52.1).
extension ReceiptRepository {
    /// Unread messages and mentions (as the count preferences count them) and pending
    /// invitations, over all the user's group channels, supergroups and the others; of one custom
    /// type when given.
    public func unreadItems(_ userID: String, customType: String?) throws -> UnreadItems {
        let row = try connection.query(
            """
            SELECT
                COALESCE(sum(unread) FILTER (WHERE counts_messages), 0) AS group_channel_unread_message_count,
                COALESCE(sum(unread) FILTER (WHERE counts_messages AND is_super), 0) AS super_group_channel_unread_message_count,
                COALESCE(sum(unread) FILTER (WHERE counts_messages AND NOT is_super), 0) AS non_super_group_channel_unread_message_count,
                COALESCE(sum(mentions) FILTER (WHERE counts_mentions), 0) AS group_channel_unread_mention_count,
                COALESCE(sum(mentions) FILTER (WHERE counts_mentions AND is_super), 0) AS super_group_channel_unread_mention_count,
                COALESCE(sum(mentions) FILTER (WHERE counts_mentions AND NOT is_super), 0) AS non_super_group_channel_unread_mention_count,
                count(*) FILTER (WHERE invited) AS group_channel_invitation_count,
                count(*) FILTER (WHERE invited AND is_super) AS super_group_channel_invitation_count,
                count(*) FILTER (WHERE invited AND NOT is_super) AS non_super_group_channel_invitation_count
            FROM (SELECT c.is_super, m.state = 'invited' AS invited, \(Self.unreadExpression) AS unread,
                      CASE WHEN m.state = 'joined' THEN m.unread_mentions ELSE 0 END AS mentions,
                      \(Self.messagesInTotals) AS counts_messages, \(Self.mentionsInTotals) AS counts_mentions
                  FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                  WHERE m.user_id = $1 AND ($2::text IS NULL OR c.custom_type = $2)) AS u
            """,
            [userID, customType]
        )[0]
        var counts: [String: Int] = [:]
        for key in UnreadItems.keys { counts[key] = Int(try row.decode(key, as: Int64.self)) }
        return UnreadItems(counts: counts)
    }

    /// How many group channels the user is in: joined, invited, or either.
    public func channelCount(_ userID: String, state: MemberStateFilter) throws -> Int {
        let states: [String] =
            switch state {
            case .all: ["joined", "invited"]
            case .joinedOnly: ["joined"]
            case .invitedOnly: ["invited"]
            }
        return Int(
            try connection.query(
                "SELECT count(*) AS n FROM group_channel_members WHERE user_id = $1 AND state = ANY($2::text[])", [userID, states]
            )[0].decode("n", as: Int64.self))
    }

    /// The member's count preference in the channel; nil when they are not a member.
    public func countPreference(_ channelURL: String, _ userID: String) throws -> CountPreference? {
        try connection.query(
            "SELECT count_preference FROM group_channel_members WHERE channel_url = $1 AND user_id = $2", [channelURL, userID]
        ).first.map { CountPreference(rawValue: try $0.decode("count_preference")) ?? .all }
    }

    /// Sets it; false when the user is not a member.
    public func setCountPreference(_ channelURL: String, _ userID: String, _ preference: CountPreference) throws -> Bool {
        try connection.query(
            "UPDATE group_channel_members SET count_preference = $3 WHERE channel_url = $1 AND user_id = $2 RETURNING 1 AS one",
            [channelURL, userID, preference.rawValue]
        ).count == 1
    }
}
