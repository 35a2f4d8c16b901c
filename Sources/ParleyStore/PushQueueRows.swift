import ParleyCore

/// A claimed push: a queued message (`devices` nil: every recipient), or the devices of one
/// message to retry.
public struct ClaimedPush: Sendable {
    public let messageID: Int64
    /// When the message was sent (ms): the 10-minute limit counts from it.
    public let createdAt: Int64
    public var devices: [RetriedDevice]?
    /// The traced send that queued it (W3C `traceparent`); nil for retries and untraced sends.
    public var traceParent: String? = nil
}

public struct RetriedDevice: Sendable, Hashable {
    public let type: String
    public let token: String
    /// Attempts so far.
    public let attempts: Int

    /// `type:token`, as the candidates' read matches devices (a token has no control characters).
    public var key: String { type + ":" + token }
}

/// A claimed push's message and what the content needs of its channel.
public struct PushMessage: Sendable {
    public let message: Message
    public let channelName: String
    public let channelCustomType: String
    public let isSuper: Bool
    public let joinedMemberCount: Int
}

/// A member the push rules are decided for, with what their push needs.
public struct PushCandidate: Sendable {
    public let messageID: Int64
    public let audience: PushAudience.Candidate
    public let nickname: String
    public let fileKeyGeneration: Int64
    /// The member's sound for this channel ("" for their own).
    public let channelSound: String
    /// Their devices (for a retry, the retried ones).
    public let tokens: [PushToken]
    /// Their total unread message count over their joined channels: the badge.
    public let unreadMessageCount: Int
}

/// What a dispatcher round writes back.
public struct PushRoundOutcome: Sendable {
    public struct Device: Sendable {
        public let messageID: Int64
        public let type: String
        public let token: String

        public init(messageID: Int64, type: String, token: String) {
            self.messageID = messageID
            self.type = type
            self.token = token
        }
    }

    public struct Retry: Sendable {
        public let messageID: Int64
        public let type: String
        public let token: String
        public let createdAt: Int64
        public let attempts: Int
        public let nextAttemptAt: Int64

        public init(messageID: Int64, type: String, token: String, createdAt: Int64, attempts: Int, nextAttemptAt: Int64) {
            self.messageID = messageID
            self.type = type
            self.token = token
            self.createdAt = createdAt
            self.attempts = attempts
            self.nextAttemptAt = nextAttemptAt
        }
    }

    public var doneMessages: [Int64] = []
    public var doneRetries: [Device] = []
    public var retries: [Retry] = []
    public var deadTokens: [PushToken] = []

    public init() {}
}
