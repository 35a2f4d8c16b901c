import ParleyCore
import Postgres

/// The rows a channel view is made of (API.md §3.1): the channels' own fields, their operators
/// and one user's memberships, each for a whole page in one query.
public struct GroupChannelReader {
    let connection: PostgresConnection

    /// The channels with these urls (unknown ones absent), without their operators, with their
    /// pinned messages' ids (newest pin first).
    public func channels(_ channelURLs: [String]) throws -> [String: (channel: GroupChannel, pinnedMessageIDs: [Int64])] {
        guard !channelURLs.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            SELECT c.channel_url, c.name, c.cover_url, c.custom_type, c.data, c.is_distinct, c.is_public, c.is_super,
                c.is_ephemeral, c.access_code_hash IS NOT NULL AS is_access_code_required, c.is_frozen, c.member_count,
                c.joined_member_count, c.created_at, c.created_by, c.pinned_message_ids::text[] AS pinned_message_ids,
                c.message_retention_hours, c.message_survival_seconds,
                cu.nickname AS creator_nickname, cu.profile_url AS creator_profile_url, cu.is_active AS creator_is_active
            FROM group_channels c LEFT JOIN users cu ON cu.user_id = c.created_by
            WHERE c.channel_url = ANY($1::text[])
            """,
            [channelURLs]
        )
        var channels: [String: (channel: GroupChannel, pinnedMessageIDs: [Int64])] = [:]
        for row in rows {
            let url: String = try row.decode("channel_url")
            let creator = try UserRepository.creator(row)
            var channel = GroupChannel(
                channelURL: url, name: try row.decode("name"), coverURL: try row.decode("cover_url"),
                customType: try row.decode("custom_type"), data: try row.decode("data"),
                isDistinct: try row.decode("is_distinct"), isPublic: try row.decode("is_public"),
                isSuper: try row.decode("is_super"), isEphemeral: try row.decode("is_ephemeral"),
                isAccessCodeRequired: try row.decode("is_access_code_required"), freeze: try row.decode("is_frozen"),
                memberCount: try row.decode("member_count"), joinedMemberCount: try row.decode("joined_member_count"),
                createdAt: try row.decode("created_at"), createdBy: creator, operators: []
            )
            let (retention, survival): (Int, Int) = (try row.decode("message_retention_hours"), try row.decode("message_survival_seconds"))
            (channel.messageRetentionHours, channel.messageSurvivalSeconds) = (
                retention > 0 ? retention : nil, survival > 0 ? survival : nil
            )
            channels[url] = (channel, try row.decode("pinned_message_ids", as: [String].self).compactMap { Int64($0) })
        }
        return channels
    }

    /// Operators of each channel, in user_id order.
    public func operators(_ channelURLs: [String]) throws -> [String: [BasicUser]] {
        let rows = try connection.query(
            """
            SELECT m.channel_url, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM group_channel_members m JOIN users u ON u.user_id = m.user_id
            WHERE m.channel_url = ANY($1::text[]) AND m.is_operator
            ORDER BY m.channel_url, u.user_id
            """,
            [channelURLs]
        )
        var operators: [String: [BasicUser]] = [:]
        for row in rows { operators[try row.decode("channel_url"), default: []].append(try UserRepository.basicUser(row)) }
        return operators
    }

    /// One user's memberships in these channels.
    public func memberships(_ channelURLs: [String], userID: String) throws -> [String: Membership] {
        let rows = try connection.query(
            """
            SELECT m.channel_url, m.user_id, m.state, m.is_operator, m.hidden_state, m.invited_at, m.joined_at,
                m.ts_message_offset, m.messages_hidden_before, m.inviter_id, iu.nickname AS inviter_nickname, iu.profile_url AS inviter_profile_url,
                iu.is_active AS inviter_is_active, m.read_ts, m.unread_mentions, m.push_trigger_option, m.count_preference,
                \(ReceiptRepository.unreadExpression) AS unread
            FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
                LEFT JOIN users iu ON iu.user_id = m.inviter_id
            WHERE m.channel_url = ANY($1::text[]) AND m.user_id = $2
            """,
            [channelURLs, userID]
        )
        var memberships: [String: Membership] = [:]
        for row in rows {
            let inviter: BasicUser? = try row.decodeIfPresent("inviter_nickname", as: String.self).map { nickname in
                BasicUser(
                    userID: try row.decode("inviter_id"), nickname: nickname,
                    profileURL: try row.decode("inviter_profile_url"), isActive: try row.decode("inviter_is_active"))
            }
            memberships[try row.decode("channel_url")] = Membership(
                userID: try row.decode("user_id"),
                state: try row.decode("state", as: MemberState.self),
                isOperator: try row.decode("is_operator"),
                hiddenState: try row.decode("hidden_state", as: HiddenState.self),
                invitedAt: try row.decode("invited_at"),
                joinedAt: try row.decode("joined_at"),
                inviter: inviter,
                tsMessageOffset: try row.decode("ts_message_offset"),
                messagesHiddenBefore: try row.decode("messages_hidden_before"),
                readTS: try row.decode("read_ts"),
                unreadMessageCount: try row.decode("unread"),
                unreadMentionCount: try row.decode("unread_mentions"),
                pushTriggerOption: ChannelPushTriggerOption(rawValue: try row.decode("push_trigger_option")) ?? .default,
                countPreference: CountPreference(rawValue: try row.decode("count_preference")) ?? .all
            )
        }
        return memberships
    }
}
