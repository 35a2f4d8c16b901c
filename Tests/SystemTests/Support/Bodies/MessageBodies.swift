/// The message resource (API.md §4.1); a FILE message also carries its file (§5.2).
struct MessageBody: Decodable {
    let messageID: Int
    let type: String
    let channelURL: String
    let channelType: String
    /// Absent on an admin message.
    let user: BasicUserBody?
    let message: String
    let customType: String
    let data: String
    let mentionType: String
    let mentionedUsers: [BasicUserBody]
    let sortedMetaarray: [MetaArrayEntry]
    let reactions: [ReactionBody]
    let translations: [String: String]
    let isOpMsg: Bool
    let silent: Bool
    let createdAt: Int
    let updatedAt: Int
    let isRemoved: Bool
    let dedupID: String?
    let file: FileBody?
    let thumbnails: [ThumbnailBody]?
    let requireAuth: Bool?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
        case type
        case channelURL = "channel_url"
        case channelType = "channel_type"
        case user, message
        case customType = "custom_type"
        case data
        case mentionType = "mention_type"
        case mentionedUsers = "mentioned_users"
        case sortedMetaarray = "sorted_metaarray"
        case reactions, translations
        case isOpMsg = "is_op_msg"
        case silent
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case isRemoved = "is_removed"
        case dedupID = "dedup_id"
        case file, thumbnails
        case requireAuth = "require_auth"
    }

    /// The sorted meta array as a map from key to values.
    var metaarray: [String: [String]] {
        Dictionary(uniqueKeysWithValues: sortedMetaarray.map { ($0.key, $0.value) })
    }
}

/// `{ "messages": [...] }`: a window of history (API.md §4.3).
struct MessageList: Decodable {
    let messages: [MessageBody]

    /// The texts of the messages, in the order given.
    var texts: [String] { messages.map(\.message) }
}

/// One key of a message's sorted meta array (API.md §4.5).
struct MetaArrayEntry: Decodable {
    let key: String
    let value: [String]
}

/// One reaction of a message and who reacted (API.md §4.6).
struct ReactionBody: Decodable {
    let key: String
    let userIDs: [String]
    let updatedAt: Int

    enum CodingKeys: String, CodingKey {
        case key
        case userIDs = "user_ids"
        case updatedAt = "updated_at"
    }
}

/// The answer to adding or removing a reaction (API.md §4.6).
struct ReactionChangeBody: Decodable {
    let reaction: String
    let userID: String
    let messageID: Int
    let updatedAt: Int
    let operation: String
    let success: Bool

    enum CodingKeys: String, CodingKey {
        case reaction
        case userID = "user_id"
        case messageID = "msg_id"
        case updatedAt = "updated_at"
        case operation, success
    }
}

/// `GET …/messages/total_count`.
struct TotalCountBody: Decodable {
    let total: Int
}
