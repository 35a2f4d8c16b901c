/// A parent message's `thread_info` (API.md §13.1): its replies that are not removed, the
/// newest of them, when the thread last changed, and the users with the most replies.
public struct ThreadInfo: Sendable, Equatable, Codable {
    public var replyCount: Int
    public var lastRepliedAt: Int64
    public var updatedAt: Int64
    /// At most `ThreadInfo.mostRepliesShown`, the most replies first (then the latest).
    public var mostReplies: [BasicUser]

    public static let mostRepliesShown = 10

    public init(replyCount: Int, lastRepliedAt: Int64, updatedAt: Int64, mostReplies: [BasicUser]) {
        self.replyCount = replyCount
        self.lastRepliedAt = lastRepliedAt
        self.updatedAt = updatedAt
        self.mostReplies = mostReplies
    }
}

/// A reply's `parent_message_info` (API.md §13.1): the parent as it is now.
public struct ParentMessageInfo: Sendable, Equatable, Codable {
    public var messageID: Int64
    public var message: String
    public var type: MessageType
    public var sender: BasicUser?
    public var createdAt: Int64
    public var customType: String
    public var isRemoved: Bool

    public init(of parent: Message) {
        messageID = parent.messageID
        message = parent.message
        type = parent.type
        sender = parent.sender
        createdAt = parent.createdAt
        customType = parent.customType
        isRemoved = parent.isRemoved
    }
}

/// Which replies a history window holds (`include_reply_type`, API.md §13.1), or one thread's.
public enum ReplyFilter: Sendable, Equatable {
    /// Messages that are no reply (the default).
    case none
    case all
    /// Messages that are no reply, and replies also sent to the channel.
    case onlyReplyToChannel
    /// The replies to this parent.
    case thread(parentID: Int64)
}
