/// A message of a channel (API.md §4.1): a user message (`MESG`), a file message (`FILE`) or an
/// admin message (`ADMM`), as the signed-in user sees it.
public struct Message: Sendable, Equatable, Codable, Identifiable {
    public let messageId: Int64
    /// `MESG`, `FILE` or `ADMM`.
    public let type: String
    public let channelURL: String
    /// `group` or `open`.
    public let channelType: String
    /// The sender; nil for an admin message.
    public var user: User?
    public var message: String
    public var customType: String
    public var data: String
    public var mentionType: String?
    public var mentionedUsers: [User]?
    public var sortedMetaarray: [MetaArray]?
    public var reactions: [Reaction]?
    /// Language code → text (API.md §9).
    public var translations: [String: String]?
    public var isOpMsg: Bool?
    public var silent: Bool?
    public let createdAt: Int64
    public var updatedAt: Int64
    public var isRemoved: Bool?
    public var dedupId: String?
    /// A file message's file: its `url` carries the signed-in user's own file auth key.
    public var file: FileInfo?
    public var thumbnails: [Thumbnail]?
    public var requireAuth: Bool?
    /// A reply's parent (API.md §13.1), and a parent's thread.
    public var parentMessageId: Int64?
    public var parentMessageInfo: ParentMessageInfo?
    /// A reply that also shows in the channel's history.
    public var isReplyToChannel: Bool?
    public var threadInfo: ThreadInfo?

    public var id: Int64 { messageId }
    public var isUserMessage: Bool { type == "MESG" }
    public var isFileMessage: Bool { type == "FILE" }
    public var isAdminMessage: Bool { type == "ADMM" }
}

public struct MetaArray: Sendable, Equatable, Codable {
    public var key: String
    public var value: [String]

    public init(key: String, value: [String]) {
        self.key = key
        self.value = value
    }
}

public struct Reaction: Sendable, Equatable, Codable {
    public var key: String
    public var userIds: [String]
    public var updatedAt: Int64?
}

public struct FileInfo: Sendable, Equatable, Codable {
    public var url: String
    public var name: String
    public var type: String
    public var size: Int64
}

public struct Thumbnail: Sendable, Equatable, Codable {
    public var url: String
    public var width: Int
    public var height: Int
    public var realWidth: Int?
    public var realHeight: Int?
}

public struct ThreadInfo: Sendable, Equatable, Codable {
    public var replyCount: Int
    public var lastRepliedAt: Int64?
    public var mostReplies: [User]?
}

/// What a reply shows of its parent.
public struct ParentMessageInfo: Sendable, Equatable, Codable {
    public var messageId: Int64
    public var message: String?
    public var type: String
    public var user: User?
    public var ts: Int64
    public var customType: String?
    public var isRemoved: Bool?
}
