/// Who reads a channel's messages: `userID` (nil for the admin reading as nobody) sees the
/// messages sent at or after `visibleFrom` (history option, reset history, hidden previous
/// messages) that are not hidden from them by a block.
public struct MessageViewer: Sendable {
    public let userID: String?
    public let visibleFrom: Int64

    public init(userID: String?, visibleFrom: Int64) {
        self.userID = userID
        self.visibleFrom = visibleFrom
    }

    /// The admin, who sees everything.
    public static let everything = MessageViewer(userID: nil, visibleFrom: 0)
}

/// A history window (API.md §4.3) around an anchor timestamp or message.
public struct HistoryQuery: Sendable {
    public var anchorTimestamp: Int64
    /// A positive message id anchors the window on that message instead of the timestamp.
    public var anchorMessageID: Int64?
    public var prevLimit = 15
    public var nextLimit = 15
    public var include = true
    public var reverse = false
    public var messageType: MessageType?
    public var customTypes: [String]?
    public var senderIDs: [String]?
    public var includeRemoved = false
    /// The stored bytes the window may hold (`Limits.historyBytes`); 0 for no bound.
    public var maxBytes = 0
    public var replies = ReplyFilter.none
    public var includeParentMessageInfo = false

    public init(anchorTimestamp: Int64) {
        self.anchorTimestamp = anchorTimestamp
    }
}

/// A history window as it is shown: its messages in the order asked for, and where the anchor
/// falls among them (`anchor`: how many are shown before the anchor's place), so that an answer
/// cut to its byte budget keeps the messages nearest the anchor (issue 50.2).
public struct MessageWindow: Sendable {
    public var messages: [Message]
    public let anchor: Int

    /// `messages` oldest first, of which the first `before` are older than the anchor; shown
    /// newest first when `reversed`.
    public init(oldestFirst messages: [Message], before: Int, reversed: Bool) {
        self.messages = reversed ? messages.reversed() : messages
        self.anchor = reversed ? messages.count - before : before
    }
}
