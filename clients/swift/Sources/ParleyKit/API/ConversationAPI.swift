import Foundation

extension ParleyClient {
    /// Threads, pins, scheduled messages, polls, search and metacounters (API.md §13).
    public var conversations: ConversationAPI { ConversationAPI(client: self) }
}

/// A thread: its parent message and a window of its replies.
public struct MessageThread: Sendable, Decodable {
    public let parentMessage: Message?
    public let replies: [Message]

    enum CodingKeys: String, CodingKey {
        case parentMessage
        case replies = "messages"
    }
}

/// What to search messages for (API.md §13.5): the query, and filters.
public struct MessageSearchQuery: Sendable {
    public var query: String
    public var channelURL: String?
    public var customType: String?
    public var senderId: String?
    /// The time span the messages were sent in (ms).
    public var from: Int64?
    public var to: Int64?
    /// Best match first, instead of newest first.
    public var byScore = false
    /// Only messages whose text holds the query as written (letter case aside).
    public var exactMatch = false
    /// The query in PostgreSQL's web search syntax (`"a phrase" or -word`).
    public var advancedQuery = false
    public var limit = 20
    public var token: String?

    public init(_ query: String, channelURL: String? = nil) {
        self.query = query
        self.channelURL = channelURL
    }

    var items: [URLQueryItem] {
        var items = GroupChannelAPI.page(limit, token) + [URLQueryItem(name: "query", value: query)]
        let optional: [(String, String?)] = [
            ("channel_url", channelURL), ("custom_type", customType), ("sender_id", senderId), ("message_ts_from", from.map(String.init)),
            ("message_ts_to", to.map(String.init)), ("sort_field", byScore ? "score" : nil), ("exact_match", exactMatch ? "true" : nil),
            ("advanced_query", advancedQuery ? "true" : nil)
        ]
        for case (let name, let value?) in optional { items.append(URLQueryItem(name: name, value: value)) }
        return items
    }
}

public struct ConversationAPI: Sendable {
    let client: ParleyClient

    func channelPath(_ type: ChannelType, _ url: String, _ rest: String) -> String {
        "/v3/\(type.pathSegment)/\(RESTClient.segment(url))\(rest)"
    }

    // MARK: Threads (§13.1): a reply is a message sent with `parentMessageId`.

    /// A thread's parent and its replies around a point, like history.
    public func thread(_ channelURL: String, parentMessageId: Int64, _ params: MessageListParams, channelType: ChannelType = .group)
        async throws -> MessageThread
    {
        try await client.rest().call(
            "GET", channelPath(channelType, channelURL, "/messages/\(parentMessageId)/thread"), query: params.items)
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

    // MARK: Search (§13.5)

    /// Messages of the user's channels holding `query` (any language), newest first.
    public func searchMessages(_ query: String, channelURL: String? = nil) async throws -> Page<Message> {
        try await searchMessages(MessageSearchQuery(query, channelURL: channelURL))
    }

    /// Messages of the user's channels that match the query and its filters.
    public func searchMessages(_ query: MessageSearchQuery) async throws -> Page<Message> {
        try await client.rest().call("GET", "/v3/search/messages", query: query.items, as: ListBody<Message>.self).page
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

    /// Removes a counter (the channel's operators).
    public func deleteCounter(_ channelURL: String, key: String, channelType: ChannelType = .group) async throws {
        try await client.rest().call("DELETE", channelPath(channelType, channelURL, "/metacounter/\(RESTClient.segment(key))"))
    }
}

private struct CounterChange: Encodable, Sendable {
    let value: Int64
    let mode: String
    let upsert: Bool
}
