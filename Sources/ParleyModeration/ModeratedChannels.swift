import ParleyCore
import ParleyStore

/// What moderation needs from a kind of channel, which the chat services provide (the container
/// connects them, so that this target does not import the chat target, which imports it).
public protocol ModeratedChannels: Sendable {
    /// Locks the channel for the transaction and says what the caller may do: 404 when the
    /// caller may not see it.
    func moderationContext(_ channelURL: String, _ caller: Caller, _ repositories: Repositories) throws -> ModerationContext
    /// Takes a banned user out of the channel at once (leave, or exit an open channel), with
    /// the events that follow.
    func remove(_ userID: String, from channelURL: String, _ repositories: Repositories) throws
    /// The channel resource as `viewerID` reads it.
    func resource(_ channelURL: String, viewerID: String?, _ repositories: Repositories) throws -> ChannelResource
    /// The channel as a report names it, when `reporterID` may see it (404 otherwise).
    func reportedChannel(_ channelURL: String, reporterID: String, _ repositories: Repositories) throws -> ReportedChannel
    /// The message as `reporterID` reads it at `now`, when they may (404 otherwise).
    func reportedMessage(_ channelURL: String, _ messageID: Int64, reporterID: String, now: Int64, _ repositories: Repositories) throws
        -> Message
}

/// A channel locked for a moderation request, used inside its transaction.
public struct ModerationContext {
    /// The admin or one of the channel's operators.
    public let callerMayModerate: Bool
    /// Whether a user is an operator of the channel (operators are not banned or muted by
    /// other operators).
    public let isOperator: (String) throws -> Bool

    public init(callerMayModerate: Bool, isOperator: @escaping (String) throws -> Bool) {
        self.callerMayModerate = callerMayModerate
        self.isOperator = isOperator
    }
}
