/// A group channel as the signed-in user sees it (API.md §3.1): the channel's fields and the
/// user's own state in it.
public struct GroupChannel: Sendable, Equatable, Codable, Identifiable {
    public let channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isDistinct: Bool
    public var isPublic: Bool
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var isAccessCodeRequired: Bool?
    public var freeze: Bool
    public var memberCount: Int
    public var joinedMemberCount: Int
    public let createdAt: Int64
    public var createdBy: User?
    public var operators: [User]?
    public var lastMessage: Message?
    public var members: [Member]?
    /// The signed-in user's: their unread counts, state (`joined`, `invited`, `none`), role
    /// (`operator` or empty), whether they hid the channel (`hidden_state`).
    public var unreadMessageCount: Int?
    public var unreadMentionCount: Int?
    public var memberState: String?
    public var myRole: String?
    public var isHidden: Bool?
    public var hiddenState: String?
    public var isPushEnabled: Bool?
    public var pinnedMessageIds: [Int64]?
    /// Each joined member's read position (ms), when the channel shows read receipts.
    public var readReceipt: [String: Int64]?

    public var id: String { channelURL }
}

/// An open channel (API.md §8.1): users enter and exit it.
public struct OpenChannel: Sendable, Equatable, Codable, Identifiable {
    public let channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isEphemeral: Bool
    public var freeze: Bool
    public var participantCount: Int
    public let createdAt: Int64
    public var operators: [User]?
    /// Newest pin first (API.md §13.2).
    public var pinnedMessageIds: [Int64]?

    public var id: String { channelURL }
}

/// The kind of a channel, as events and messages name it.
public enum ChannelType: String, Sendable, Codable {
    case group, open

    var pathSegment: String { self == .group ? "group_channels" : "open_channels" }
}
