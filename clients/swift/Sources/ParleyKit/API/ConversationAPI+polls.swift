import Foundation

/// A new poll: its options, and whether members may add some or vote for several.
public struct PollParams: Encodable, Sendable {
    public var title: String
    public var options: [String]
    public var allowUserSuggestion: Bool?
    public var allowMultipleVotes: Bool?
    /// When it closes by itself (ms).
    public var closeAt: Int64?
    public var data: String?

    public init(title: String, options: [String], allowMultipleVotes: Bool? = nil) {
        self.title = title
        self.options = options
        self.allowMultipleVotes = allowMultipleVotes
    }
}

/// A poll's change (its creator or the channel's operators): the fields given change.
public struct PollUpdate: Encodable, Sendable {
    public var title: String?
    public var data: String?
    public var allowUserSuggestion: Bool?
    public var allowMultipleVotes: Bool?
    public var closeAt: Int64?

    public init(title: String? = nil, closeAt: Int64? = nil) {
        self.title = title
        self.closeAt = closeAt
    }
}

// MARK: Polls (§13.4)
extension ConversationAPI {
    private func optionPath(_ poll: Int64, _ option: Int64) -> String {
        "/v3/polls/\(poll)/options/\(option)"
    }

    /// Makes a poll; send a message with its id (`UserMessageParams.pollId`) to put it in a channel.
    public func createPoll(_ params: PollParams) async throws -> Poll {
        try await client.rest().call("POST", "/v3/polls", body: params)
    }

    public func poll(_ id: Int64) async throws -> Poll {
        try await client.rest().call("GET", "/v3/polls/\(id)")
    }

    /// A channel's polls, newest first.
    public func polls(in channelURL: String, channelType: ChannelType = .group, limit: Int = 20, token: String? = nil) async throws
        -> Page<Poll>
    {
        let query =
            GroupChannelAPI.page(limit, token) + [
                URLQueryItem(name: "channel_url", value: channelURL), URLQueryItem(name: "channel_type", value: channelType.rawValue)
            ]
        return try await client.rest().call("GET", "/v3/polls", query: query, as: ListBody<Poll>.self).page
    }

    public func updatePoll(_ id: Int64, _ update: PollUpdate) async throws -> Poll {
        try await client.rest().call("PUT", "/v3/polls/\(id)", body: update)
    }

    public func deletePoll(_ id: Int64) async throws {
        try await client.rest().call("DELETE", "/v3/polls/\(id)")
    }

    /// Replaces the signed-in user's votes in the poll (`[]` takes them back).
    public func vote(poll id: Int64, optionIds: [Int64]) async throws -> Poll {
        try await client.rest().call("PUT", "/v3/polls/\(id)/vote", body: ["option_ids": optionIds])
    }

    public func closePoll(_ id: Int64) async throws -> Poll {
        try await client.rest().call("PUT", "/v3/polls/\(id)/close", body: EmptyBody())
    }

    /// Adds an option (anyone who may vote, when the poll allows suggestions).
    public func addPollOption(poll id: Int64, text: String) async throws -> Poll {
        try await client.rest().call("POST", "/v3/polls/\(id)/options", body: ["text": text])
    }

    public func pollOption(poll: Int64, option: Int64) async throws -> PollOption {
        try await client.rest().call("GET", optionPath(poll, option))
    }

    /// Rewords an option (the poll's creator or the channel's operators, as every change).
    public func updatePollOption(poll: Int64, option: Int64, text: String) async throws -> Poll {
        try await client.rest().call("PUT", optionPath(poll, option), body: ["text": text])
    }

    /// Removes an option and its votes.
    public func deletePollOption(poll: Int64, option: Int64) async throws -> Poll {
        try await client.rest().call("DELETE", optionPath(poll, option))
    }

    /// Who voted for an option.
    public func voters(poll: Int64, option: Int64, limit: Int = 20, token: String? = nil) async throws -> Page<User> {
        try await client.rest().call(
            "GET", optionPath(poll, option) + "/voters", query: GroupChannelAPI.page(limit, token), as: ListBody<User>.self
        ).page
    }
}
