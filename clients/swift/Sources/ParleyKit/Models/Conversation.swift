/// A poll (API.md §13.4): made on its own, carried into a channel by a message sent with its id.
public struct Poll: Sendable, Equatable, Decodable, Identifiable {
    public let id: Int64
    public var title: String
    public var data: String
    /// `open` or `closed`.
    public var status: String
    public var allowUserSuggestion: Bool
    public var allowMultipleVotes: Bool
    /// When it closes by itself (ms); -1: only by hand.
    public var closeAt: Int64
    public var createdBy: String?
    public var channelURL: String?
    public var messageId: Int64
    public var voterCount: Int
    public var options: [PollOption]
    /// The options the signed-in user voted for.
    public var votedOptionIds: [Int64]?
    public let createdAt: Int64
    public var updatedAt: Int64
}

public struct PollOption: Sendable, Equatable, Decodable, Identifiable {
    public let id: Int64
    public var text: String
    public var voteCount: Int
    public var createdBy: String?
}

/// A message that waits to be sent at `scheduledAt` (API.md §13.3).
public struct ScheduledMessage: Sendable, Equatable, Decodable, Identifiable {
    public let scheduledMessageId: Int64
    public var scheduledAt: Int64
    /// `pending`, `sent`, `failed` or `canceled`.
    public var status: String
    public let channelURL: String
    public var type: String
    public var message: String
    public var customType: String
    public var data: String
    /// The message it became, once sent (0 before).
    public var messageId: Int64
    /// Why it failed: the refusal a live send would have had.
    public var failureCode: Int?
    public var failureReason: String?

    public var id: Int64 { scheduledMessageId }
}
