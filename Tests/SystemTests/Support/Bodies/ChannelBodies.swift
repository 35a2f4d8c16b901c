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
        case channelURL = "channel_url"
        case name
        case coverURL = "cover_url"
        case customType = "custom_type"
        case data
        case isDistinct = "is_distinct"
        case isPublic = "is_public"
        case isSuper = "is_super"
        case isEphemeral = "is_ephemeral"
        case isAccessCodeRequired = "is_access_code_required"
        case freeze
        case memberCount = "member_count"
        case joinedMemberCount = "joined_member_count"
        case maxLengthMessage = "max_length_message"
        case createdAt = "created_at"
        case createdBy = "created_by"
        case operators
        case lastMessage = "last_message"
        case members
        case readReceipt = "read_receipt"
        case deliveryReceipt = "delivery_receipt"
        case memberState = "member_state"
        case myRole = "my_role"
        case isHidden = "is_hidden"
        case hiddenState = "hidden_state"
        case userLastRead = "user_last_read"
        case tsMessageOffset = "ts_message_offset"
        case unreadMessageCount = "unread_message_count"
        case unreadMentionCount = "unread_mention_count"
        case invitedAt = "invited_at"
        case joinedTS = "joined_ts"
        case inviter
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
        case userID = "user_id"
        case nickname
        case profileURL = "profile_url"
        case isActive = "is_active"
        case state, role
        case isOnline = "is_online"
        case lastSeenAt = "last_seen_at"
        case isMuted = "is_muted"
        case mutedEndAt = "muted_end_at"
        case readTS = "read_ts"
        case deliveredTS = "delivered_ts"
    }
}

/// `GET /v3/group_channels/{channel_url}/members/{user_id}`.
struct MemberCheckBody: Decodable {
    let isMember: Bool
    let state: String

    enum CodingKeys: String, CodingKey {
        case isMember = "is_member"
        case state
    }
}

/// `PUT /v3/group_channels/{channel_url}/reset_user_history`.
struct MessageOffsetBody: Decodable {
    let tsMessageOffset: Int

    enum CodingKeys: String, CodingKey {
        case tsMessageOffset = "ts_message_offset"
    }
}
