/// A poll (API.md §13.4): its question, its options with their exact vote counts, and the
/// channel it belongs to once a message carries it (or it was made for one).
public struct Poll: Sendable, Equatable, Codable {
    public var pollID: Int64
    public var title: String
    public var data: String
    public var allowUserSuggestion: Bool
    public var allowMultipleVotes: Bool
    /// When it closes by itself; nil: only when closed by hand.
    public var closeAt: Int64?
    public var isClosed: Bool
    public var createdBy: String?
    public var channelURL: String?
    public var channelKind: ChannelKind?
    public var messageID: Int64?
    public var voterCount: Int
    public var options: [PollOption]
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        pollID: Int64, title: String, data: String, allowUserSuggestion: Bool, allowMultipleVotes: Bool, closeAt: Int64?,
        isClosed: Bool, createdBy: String?, voterCount: Int, options: [PollOption], createdAt: Int64, updatedAt: Int64
    ) {
        self.pollID = pollID
        self.title = title
        self.data = data
        self.allowUserSuggestion = allowUserSuggestion
        self.allowMultipleVotes = allowMultipleVotes
        self.closeAt = closeAt
        self.isClosed = isClosed
        self.createdBy = createdBy
        self.voterCount = voterCount
        self.options = options
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Closed by hand, or past its `close_at`.
    public func isClosed(at now: Int64) -> Bool {
        isClosed || closeAt.map { $0 <= now } == true
    }
}

/// One answer of a poll and how many voted for it.
public struct PollOption: Sendable, Equatable, Codable {
    public var optionID: Int64
    public var pollID: Int64
    public var text: String
    public var createdBy: String?
    public var voteCount: Int
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(optionID: Int64, pollID: Int64, text: String, createdBy: String?, voteCount: Int, createdAt: Int64, updatedAt: Int64) {
        self.optionID = optionID
        self.pollID = pollID
        self.text = text
        self.createdBy = createdBy
        self.voteCount = voteCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A new poll (`POST /v3/polls`), validated for form.
public struct NewPoll: Sendable {
    public var title: String
    public var options: [String]
    public var data = ""
    public var allowUserSuggestion = false
    public var allowMultipleVotes = false
    public var closeAt: Int64?
    public var createdBy: String?
    /// The channel it is made for, if any (a message carrying it must then be of that channel).
    public var channel: (url: String, kind: ChannelKind)?

    public init(title: String, options: [String]) {
        self.title = title
        self.options = options
    }
}

/// A change to a poll (`PUT /v3/polls/{id}`); nil fields stay. `closeAt` `.some(nil)` removes it.
public struct PollUpdate: Sendable {
    public var title: String?
    public var data: String?
    public var allowUserSuggestion: Bool?
    public var allowMultipleVotes: Bool?
    public var closeAt: Int64??

    public init() {}
}

extension Validation {
    public static let maxPollTitleLength = 2_000
    public static let maxPollOptionLength = 2_000
}

/// Which polls `GET /v3/polls` lists.
public enum PollListScope: Sendable, Equatable {
    case channel(url: String, kind: ChannelKind)
    case createdBy(String)
    case all
}
