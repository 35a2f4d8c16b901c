/// A scheduled message's state (API.md §13.3).
public enum ScheduledStatus: String, Sendable, Codable, CaseIterable {
    case pending, sent, failed, canceled
}

/// A message to send later (API.md §13.3), as its sender, through the live send path.
public struct ScheduledMessage: Sendable {
    public var scheduledMessageID: Int64
    public var channelURL: String
    /// The sender as they are now (a deleted user: their id, nothing else).
    public var sender: BasicUser
    /// What will be sent (its `senderID` is the sender's).
    public var content: NewMessage
    public var scheduledAt: Int64
    public var status: ScheduledStatus
    /// Why it failed: the code and message the send was refused with.
    public var failureCode: Int?
    public var failureReason: String?
    /// The message it became.
    public var messageID: Int64?
    /// Claims of it so far (each an attempt to send it).
    public var attempts = 0
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        scheduledMessageID: Int64, channelURL: String, sender: BasicUser, content: NewMessage, scheduledAt: Int64,
        status: ScheduledStatus, createdAt: Int64, updatedAt: Int64
    ) {
        self.scheduledMessageID = scheduledMessageID
        self.channelURL = channelURL
        self.sender = sender
        self.content = content
        self.scheduledAt = scheduledAt
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The `dedup_id` its send carries: a second attempt (a lease that ran out while the first
    /// was still sending, or a retry after its instance died) finds the first's message.
    public var dedupID: String { "scheduled-\(scheduledMessageID)" }
}

/// A change to a pending scheduled message; nil fields stay.
public struct ScheduledMessageUpdate: Sendable {
    public var message: String?
    public var customType: String?
    public var data: String?
    public var mentionType: MentionType?
    public var mentionedUserIDs: [String]?
    public var sortedMetaarray: [MetaArray]?
    public var isSilent: Bool?
    public var sendsPush: Bool?
    public var targetLanguages: [String]?
    public var scheduledAt: Int64?

    public init() {}

    /// The content with this change applied.
    public func applied(to content: NewMessage) -> NewMessage {
        var changed = content
        if let message { changed.message = message }
        if let customType { changed.customType = customType }
        if let data { changed.data = data }
        if let mentionType { changed.mentionType = mentionType }
        if let mentionedUserIDs { changed.mentionedUserIDs = mentionedUserIDs }
        if let sortedMetaarray { changed.sortedMetaarray = sortedMetaarray }
        if let isSilent { changed.isSilent = isSilent }
        if let sendsPush { changed.sendsPush = sendsPush }
        if let targetLanguages { changed.targetLanguages = targetLanguages }
        return changed
    }
}

/// Which scheduled messages a listing or count covers.
public struct ScheduledMessageFilter: Sendable {
    public var channelURL: String?
    public var senderID: String?
    /// nil: every status.
    public var statuses: [ScheduledStatus]?
    public var messageType: MessageType?

    public init() {}
}
