/// The kinds of message (API.md §4.1).
public enum MessageType: String, Sendable, Codable {
    case user = "MESG"
    case file = "FILE"
    case admin = "ADMM"
}

public enum MentionType: String, Sendable, Codable {
    case users, channel
}

/// One key of a message's sorted meta array.
public struct MetaArray: Sendable, Equatable, Codable {
    public var key: String
    public var value: [String]

    public init(key: String, value: [String]) {
        self.key = key
        self.value = value
    }
}

/// One reaction key on a message and who reacted with it (API.md §4.6).
public struct Reaction: Sendable, Equatable, Codable {
    public let key: String
    public let userIDs: [String]
    public let updatedAt: Int64

    public init(key: String, userIDs: [String], updatedAt: Int64) {
        self.key = key
        self.userIDs = userIDs
        self.updatedAt = updatedAt
    }
}

/// A message as stored and shown (API.md §4.1).
public struct Message: Sendable, Equatable, Codable {
    public var messageID: Int64
    public var type: MessageType
    public var channelURL: String
    /// The sender as they were when sending; nil for admin messages.
    public var sender: BasicUser?
    public var message: String
    public var customType: String
    public var data: String
    public var mentionType: MentionType
    /// The mentioned users' ids as stored, and their profiles as shown (unknown ids skipped).
    public var mentionedUserIDs: [String]
    public var mentionedUsers: [BasicUser] = []
    public var sortedMetaarray: [MetaArray]
    public var reactions: [Reaction] = []
    public var isOpMsg: Bool
    public var silent: Bool
    public var createdAt: Int64
    public var updatedAt: Int64
    public var isRemoved: Bool
    public var dedupID: String?
    /// The file of a FILE message.
    public var file: FileAttachment?
    /// The member this message is hidden from: sent into a 1-to-1 channel by a user that member
    /// blocks (API.md §7.3). Never shown; its sender sees the message as sent.
    public var hiddenFrom: String?
    /// Whether the one reading the message blocks its sender (shown as the sender's
    /// `is_blocked_by_me`): it depends on the reader, so it is filled in for each and never stored.
    public var isSenderBlockedByViewer = false
    /// The kind of channel the message is in (its `channel_type`): stored on the row, and on
    /// an event rather than in its payload.
    public var channelKind: ChannelKind = .group
    /// The text in other languages, by language code (API.md §9). Optional so that events
    /// stored before translations existed still decode; nil and empty both mean none.
    public var translations: [String: String]?
    /// The preview of the first URL in the text (API.md §11.1), added after the send.
    public var ogTag: OGTag?
    /// A reply's parent, whether it was also sent to the channel, and (filled in when asked) the
    /// parent as it is; a parent's thread. Optional, so that events stored before threads decode.
    public var parentMessageID: Int64?
    public var isReplyToChannel: Bool?
    public var parentMessageInfo: ParentMessageInfo?
    public var threadInfo: ThreadInfo?
    /// The poll it carries (API.md §13.4): its id as stored and in events; the poll itself is
    /// filled in for the reader (`MessageDetails`), never stored with an event.
    public var pollID: Int64?
    public var poll: Poll?

    enum CodingKeys: String, CodingKey {
        case messageID, type, channelURL, sender, message, customType, data, mentionType, mentionedUserIDs, mentionedUsers
        case sortedMetaarray, reactions, isOpMsg, silent, createdAt, updatedAt, isRemoved, dedupID, file, hiddenFrom, translations, ogTag
        case parentMessageID, isReplyToChannel, parentMessageInfo, threadInfo, pollID
    }

    /// Whether the message mentions this user (by name, or everyone with a channel mention).
    public func mentions(_ userID: String) -> Bool {
        mentionType == .channel || mentionedUserIDs.contains(userID)
    }

    public init(
        messageID: Int64, type: MessageType, channelURL: String, sender: BasicUser?, message: String, customType: String,
        data: String, mentionType: MentionType, mentionedUserIDs: [String], sortedMetaarray: [MetaArray], isOpMsg: Bool,
        silent: Bool, createdAt: Int64, updatedAt: Int64, isRemoved: Bool, dedupID: String?, file: FileAttachment? = nil,
        hiddenFrom: String? = nil, channelKind: ChannelKind = .group
    ) {
        self.channelKind = channelKind
        self.messageID = messageID
        self.type = type
        self.channelURL = channelURL
        self.sender = sender
        self.message = message
        self.customType = customType
        self.data = data
        self.mentionType = mentionType
        self.mentionedUserIDs = mentionedUserIDs
        self.sortedMetaarray = sortedMetaarray
        self.isOpMsg = isOpMsg
        self.silent = silent
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isRemoved = isRemoved
        self.dedupID = dedupID
        self.file = file
        self.hiddenFrom = hiddenFrom
    }
}

/// A message to send (API.md §4.2), validated for form.
public struct NewMessage: Sendable {
    public var type: MessageType
    /// The sending user; nil for admin messages.
    public var senderID: String?
    public var message: String
    public var customType: String
    public var data: String
    public var mentionType: MentionType
    public var mentionedUserIDs: [String]
    public var sortedMetaarray: [MetaArray]
    public var dedupID: String?
    public var isSilent: Bool
    /// `send_push: false` sends without a push notification (API.md §12.3).
    public var sendsPush = true
    /// The file of a FILE message: uploaded (stored, not yet linked to a message) or external.
    public var file: FileAttachment?
    /// `target_langs` (API.md §9.2): translated before the message is stored, within a limit.
    public var targetLanguages: [String] = []
    /// The translations done in time, stored with the message.
    public var translations: [String: String] = [:]
    /// `parent_message_id` and `is_reply_to_channel` (API.md §13.1).
    public var parentMessageID: Int64?
    public var isReplyToChannel = false
    /// `poll_id`: the poll the message carries (API.md §13.4).
    public var pollID: Int64?

    public init(
        type: MessageType, senderID: String?, message: String, customType: String = "", data: String = "",
        mentionType: MentionType = .users, mentionedUserIDs: [String] = [], sortedMetaarray: [MetaArray] = [],
        dedupID: String? = nil, isSilent: Bool = false, file: FileAttachment? = nil
    ) {
        self.type = type
        self.senderID = senderID
        self.message = message
        self.customType = customType
        self.data = data
        self.mentionType = mentionType
        self.mentionedUserIDs = mentionedUserIDs
        self.sortedMetaarray = sortedMetaarray
        self.dedupID = dedupID
        self.isSilent = isSilent
        self.file = file
    }
}

/// A change to a message (API.md §4.4); nil fields stay.
public struct MessageUpdate: Sendable {
    public var message: String?
    public var customType: String?
    public var data: String?
    public var mentionType: MentionType?
    public var mentionedUserIDs: [String]?

    public init(
        message: String? = nil, customType: String? = nil, data: String? = nil, mentionType: MentionType? = nil,
        mentionedUserIDs: [String]? = nil
    ) {
        self.message = message
        self.customType = customType
        self.data = data
        self.mentionType = mentionType
        self.mentionedUserIDs = mentionedUserIDs
    }
}

extension Validation {
    public static let maxDedupIDLength = 64
    public static let maxMentionedUsers = 10
    public static let maxMetaArrayKeys = 20
    public static let maxMetaArrayValues = 50
}

extension Message {
    /// The message `new` becomes once sent: stored (or, in an ephemeral channel, only numbered)
    /// with this id and time.
    public init(
        sent new: NewMessage, messageID: Int64, channelURL: String, sender: BasicUser?, isOperator: Bool, createdAt: Int64,
        hiddenFrom: String? = nil, channelKind: ChannelKind = .group
    ) {
        self.init(
            messageID: messageID, type: new.type, channelURL: channelURL, sender: sender, message: new.message,
            customType: new.customType, data: new.data, mentionType: new.mentionType, mentionedUserIDs: new.mentionedUserIDs,
            sortedMetaarray: new.sortedMetaarray, isOpMsg: isOperator, silent: new.isSilent, createdAt: createdAt,
            updatedAt: 0, isRemoved: false, dedupID: new.dedupID, file: new.file, hiddenFrom: hiddenFrom, channelKind: channelKind
        )
        self.translations = new.translations.isEmpty ? nil : new.translations
        if let parentID = new.parentMessageID {
            (parentMessageID, isReplyToChannel) = (parentID, new.isReplyToChannel)
        }
        pollID = new.pollID
    }
}
