/// `GET /v3/users/{user_id}/unread_message_count` and `…/unread_channel_count` (API.md §4.7).
struct UnreadCountBody: Decodable {
    let unreadCount: Int

    enum CodingKeys: String, CodingKey {
        case unreadCount = "unread_count"
    }
}

/// `GET …/messages/unread_count`: each asked user's unread messages (API.md §4.7).
struct UnreadMapBody: Decodable {
    let unread: [String: Int]
}

/// `PUT …/messages/mark_as_delivered`: the time recorded (API.md §4.7).
struct TimestampBody: Decodable {
    let ts: Int
}
