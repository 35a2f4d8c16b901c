import Foundation

extension ParleyClient {
    /// Threads, pins, scheduled messages, polls, search and metacounters (API.md §13).
    public var conversations: ConversationAPI { ConversationAPI(client: self) }
}

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

public struct ConversationAPI: Sendable {
    let client: ParleyClient

    private func channelPath(_ type: ChannelType, _ url: String, _ rest: String) -> String {
        "/v3/\(type.pathSegment)/\(RESTClient.segment(url))\(rest)"
    }

    // MARK: Threads (§13.1): a reply is a message sent with `parentMessageId`.

    /// A thread's replies around a point, like history.
    public func thread(_ channelURL: String, parentMessageId: Int64, _ params: MessageListParams, channelType: ChannelType = .group)
        async throws -> [Message]
    {
        try await client.rest().call(
            "GET", channelPath(channelType, channelURL, "/messages/\(parentMessageId)/thread"), query: params.items,
            as: MessagesBody.self
        ).messages
    }

    // MARK: Pinned messages (§13.2)

    public func pin(_ channelURL: String, messageId: Int64, channelType: ChannelType = .group) async throws {
        try await client.rest().call("POST", channelPath(channelType, channelURL, "/messages/\(messageId)/pin"), body: EmptyBody())
    }

    public func unpin(_ channelURL: String, messageId: Int64, channelType: ChannelType = .group) async throws {
        try await client.rest().call("DELETE", channelPath(channelType, channelURL, "/messages/\(messageId)/pin"))
    }

    /// The channel's pinned messages, newest pin first.
    public func pinnedMessages(_ channelURL: String, channelType: ChannelType = .group, limit: Int = 20, token: String? = nil)
        async throws -> Page<Message>
    {
        try await client.rest().call(
            "GET", channelPath(channelType, channelURL, "/pinned_messages"), query: GroupChannelAPI.page(limit, token),
            as: ListBody<Message>.self
        ).page
    }

    // MARK: Scheduled messages (§13.3)

    /// Schedules a user message to be sent at `at` (ms, 5 minutes to 30 days ahead by default).
    public func schedule(_ channelURL: String, _ params: UserMessageParams, at scheduledAt: Int64) async throws -> ScheduledMessage {
        // The scheduled send carries a dedup id of the server's own.
        var content = params
        content.dedupId = nil
        return try await client.rest().call(
            "POST", channelPath(.group, channelURL, "/scheduled_messages"), body: Scheduled(content: content, scheduledAt: scheduledAt))
    }

    public func cancelScheduled(_ channelURL: String, id: Int64) async throws -> ScheduledMessage {
        try await client.rest().call("DELETE", channelPath(.group, channelURL, "/scheduled_messages/\(id)"))
    }

    public func sendScheduledNow(_ channelURL: String, id: Int64) async throws -> ScheduledMessage {
        try await client.rest().call("POST", channelPath(.group, channelURL, "/scheduled_messages/\(id)/send_now"), body: EmptyBody())
    }

    /// The signed-in user's scheduled messages (of one channel, when given).
    public func scheduledMessages(channelURL: String? = nil, limit: Int = 20, token: String? = nil) async throws -> Page<ScheduledMessage> {
        var query = GroupChannelAPI.page(limit, token)
        if let channelURL { query.append(URLQueryItem(name: "channel_url", value: channelURL)) }
        return try await client.rest().call("GET", "/v3/scheduled_messages", query: query, as: ListBody<ScheduledMessage>.self).page
    }

    // MARK: Polls (§13.4)

    /// Makes a poll; send a message with its id (`UserMessageParams.pollId`) to put it in a channel.
    public func createPoll(_ params: PollParams) async throws -> Poll {
        try await client.rest().call("POST", "/v3/polls", body: params)
    }

    public func poll(_ id: Int64) async throws -> Poll {
        try await client.rest().call("GET", "/v3/polls/\(id)")
    }

    /// Replaces the signed-in user's votes in the poll (`[]` takes them back).
    public func vote(poll id: Int64, optionIds: [Int64]) async throws -> Poll {
        try await client.rest().call("PUT", "/v3/polls/\(id)/vote", body: ["option_ids": optionIds])
    }

    public func closePoll(_ id: Int64) async throws -> Poll {
        try await client.rest().call("PUT", "/v3/polls/\(id)/close", body: EmptyBody())
    }

    public func addPollOption(poll id: Int64, text: String) async throws -> Poll {
        try await client.rest().call("POST", "/v3/polls/\(id)/options", body: ["text": text])
    }

    // MARK: Search (§13.5)

    /// Messages of the user's channels holding `query` (any language), newest first.
    public func searchMessages(_ query: String, channelURL: String? = nil, limit: Int = 20, token: String? = nil) async throws
        -> Page<Message>
    {
        var items = GroupChannelAPI.page(limit, token) + [URLQueryItem(name: "query", value: query)]
        if let channelURL { items.append(URLQueryItem(name: "channel_url", value: channelURL)) }
        return try await client.rest().call("GET", "/v3/search/messages", query: items, as: ListBody<Message>.self).page
    }

    // MARK: Metacounters (§13.6)

    public func metacounters(_ channelURL: String, channelType: ChannelType = .group) async throws -> [String: Int64] {
        try await client.rest().call("GET", channelPath(channelType, channelURL, "/metacounter"))
    }

    /// Adds `by` to a counter (negative: subtracts), atomically; its value after.
    public func increase(_ channelURL: String, key: String, by amount: Int64, channelType: ChannelType = .group) async throws -> Int64 {
        guard amount != .min else { throw ParleyKitError(code: 400111, status: 0, message: "The amount does not fit 64 bits.") }
        let body = CounterChange(value: abs(amount), mode: amount < 0 ? "decrease" : "increase", upsert: true)
        let values: [String: Int64] = try await client.rest().call(
            "PUT", channelPath(channelType, channelURL, "/metacounter/\(RESTClient.segment(key))"), body: body)
        return values[key] ?? 0
    }
}

private struct Scheduled: Encodable, Sendable {
    let content: UserMessageParams
    let scheduledAt: Int64

    func encode(to encoder: any Encoder) throws {
        try content.encode(to: encoder)
        var container = encoder.container(keyedBy: JSONCoding.CamelKey.self)
        try container.encode(scheduledAt, forKey: JSONCoding.CamelKey("scheduledAt"))
    }
}

private struct CounterChange: Encodable, Sendable {
    let value: Int64
    let mode: String
    let upsert: Bool
}
