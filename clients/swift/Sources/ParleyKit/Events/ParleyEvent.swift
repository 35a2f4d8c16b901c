import Foundation

/// One frame of the event stream (docs/EVENTS.md): an event (with an `eventId`, in order, each
/// once, also across reconnections), or a frame that is state, not history (typing, unread
/// counts: no `eventId`). `data` is read with the typed accessors.
public struct ParleyEvent: Sendable {
    /// Increasing server-wide; nil for typing, unread counts and the like.
    public let eventId: Int64?
    /// `message_received`, `typing_started`, … (EVENTS.md §3–4); unknown types come too. Two are
    /// ParleyKit's: `resync_required` after the channel changelog was read (what the server could
    /// not replay), and `reconnected` when the stream opens again after a drop.
    public let type: String
    public let ts: Int64?
    public let channelURL: String?
    public let channelType: ChannelType?
    /// The frame's `data` as JSON.
    public let data: Data

    /// The message of `message_received`, `message_updated` and `message_pinned`.
    public var message: Message? { decode(Message.self) }
    /// The id of `message_deleted` and `message_unpinned`.
    public var messageId: Int64? { decode(MessageIdBody.self)?.messageId }
    /// The channel of `channel_changed` (without per-user fields).
    public var channel: GroupChannel? { decode(GroupChannel.self) }
    /// The users of `member_joined`, `member_left`, `operators_changed`, `participant_entered`, …
    public var users: [User]? { decode(UsersBody.self)?.users }
    /// The user of `typing_started`, `typing_ended`, `user_banned`, `user_muted`, …
    public var user: User? { decode(UserBody.self)?.user }
    /// `read` and `delivered`: who, and their new position (ms).
    public var receipt: (userId: String, ts: Int64)? {
        guard let body = decode(ReceiptBody.self) else { return nil }
        return (body.userId, body.ts)
    }
    /// `reaction_updated`.
    public var reaction: ReactionChange? { decode(ReactionChange.self) }
    /// `unread_count_changed`.
    public var unreadCount: UnreadCount? { decode(UnreadCount.self) }

    /// `data` decoded as any type of the caller's.
    public func decode<T: Decodable>(_ type: T.Type) -> T? {
        try? JSONCoding.decoder.decode(T.self, from: data)
    }

    private struct MessageIdBody: Decodable {
        let messageId: Int64
    }

    private struct UsersBody: Decodable {
        let users: [User]
    }

    private struct UserBody: Decodable {
        let user: User
    }

    private struct ReceiptBody: Decodable {
        let userId: String
        let ts: Int64
    }

    /// An `error` frame's code and message (the REST API's, API.md §1.5).
    public let errorCode: Int?
    public let errorMessage: String?
    /// A `hello` frame's `last_event_id`.
    let lastEventId: Int64?

    /// A frame of ParleyKit's own, for the streams: `resync_required` (the channel changelog has
    /// been read), `reconnected` (the stream is open again after a drop).
    static func local(_ type: String) -> ParleyEvent {
        ParleyEvent(
            eventId: nil, type: type, ts: nil, channelURL: nil, channelType: nil, data: Data("{}".utf8), errorCode: nil, errorMessage: nil,
            lastEventId: nil)
    }

    /// Reads a frame; nil when it is not a JSON object with a `type`.
    static func parse(_ text: String) -> ParleyEvent? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let type = object["type"] as? String
        else { return nil }
        let data = (object["data"]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
        return ParleyEvent(
            eventId: (object["event_id"] as? NSNumber)?.int64Value, type: type, ts: (object["ts"] as? NSNumber)?.int64Value,
            channelURL: object["channel_url"] as? String, channelType: (object["channel_type"] as? String).flatMap(ChannelType.init),
            data: data ?? Data("{}".utf8), errorCode: (object["code"] as? NSNumber)?.intValue, errorMessage: object["message"] as? String,
            lastEventId: (object["last_event_id"] as? NSNumber)?.int64Value)
    }
}

/// `reaction_updated`: a user added or removed a reaction.
public struct ReactionChange: Sendable, Equatable, Decodable {
    public let messageId: Int64
    public let key: String
    public let userId: String
    /// `add` or `delete`.
    public let operation: String
}

/// The signed-in user's unread counts (`unread_count_changed`).
public struct UnreadCount: Sendable, Equatable, Decodable {
    public let channelURL: String
    public let unreadMessageCount: Int
    public let unreadMentionCount: Int
    public let totalUnreadMessageCount: Int
}
