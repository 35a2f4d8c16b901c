/// The group channel resource (API.md §3.1). The viewer's own fields are there when the channel
/// is seen by a user; members and receipts when asked for.
struct ChannelBody: Decodable {
    let channelURL: String
    let name: String
    let coverURL: String
    let customType: String
    let data: String
    let isDistinct: Bool
    let isPublic: Bool
    let isSuper: Bool
    let isEphemeral: Bool
    let isAccessCodeRequired: Bool
    let freeze: Bool
    let memberCount: Int
    let joinedMemberCount: Int
    let maxLengthMessage: Int
    let createdAt: Int
    let createdBy: BasicUserBody?
    let operators: [BasicUserBody]
    let lastMessage: MessageBody?
    let members: [MemberBody]?
    let readReceipt: [String: Int]?
    let deliveryReceipt: [String: Int]?
    let memberState: String?
    let myRole: String?
    let isHidden: Bool?
    let hiddenState: String?
    let userLastRead: Int?
    let tsMessageOffset: Int?
    let unreadMessageCount: Int?
    let unreadMentionCount: Int?
    let invitedAt: Int?
    let joinedTS: Int?
    let inviter: BasicUserBody?

    enum CodingKeys: String, CodingKey {
        case channelURL = "channel_url", name, coverURL = "cover_url", customType = "custom_type", data
        case isDistinct = "is_distinct", isPublic = "is_public", isSuper = "is_super", isEphemeral = "is_ephemeral"
        case isAccessCodeRequired = "is_access_code_required", freeze, memberCount = "member_count"
        case joinedMemberCount = "joined_member_count", maxLengthMessage = "max_length_message", createdAt = "created_at"
        case createdBy = "created_by", operators, lastMessage = "last_message", members
        case readReceipt = "read_receipt", deliveryReceipt = "delivery_receipt"
        case memberState = "member_state", myRole = "my_role", isHidden = "is_hidden", hiddenState = "hidden_state"
        case userLastRead = "user_last_read", tsMessageOffset = "ts_message_offset"
        case unreadMessageCount = "unread_message_count", unreadMentionCount = "unread_mention_count"
        case invitedAt = "invited_at", joinedTS = "joined_ts", inviter
    }
}

/// A member in a channel's member list (API.md §3.4).
struct MemberBody: Decodable {
    let userID: String
    let nickname: String
    let profileURL: String
    let isActive: Bool
    let state: String
    let role: String
    let isOnline: Bool
    let lastSeenAt: Int
    let isMuted: Bool
    let mutedEndAt: Int
    let readTS: Int
    let deliveredTS: Int

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", nickname, profileURL = "profile_url", isActive = "is_active", state, role
        case isOnline = "is_online", lastSeenAt = "last_seen_at", isMuted = "is_muted", mutedEndAt = "muted_end_at"
        case readTS = "read_ts", deliveredTS = "delivered_ts"
    }
}

/// `GET /v3/group_channels/{channel_url}/members/{user_id}`.
struct MemberCheckBody: Decodable {
    let isMember: Bool
    let state: String

    enum CodingKeys: String, CodingKey {
        case isMember = "is_member", state
    }
}

/// `PUT /v3/group_channels/{channel_url}/reset_user_history`.
struct MessageOffsetBody: Decodable {
    let tsMessageOffset: Int

    enum CodingKeys: String, CodingKey {
        case tsMessageOffset = "ts_message_offset"
    }
}
