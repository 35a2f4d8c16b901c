import Foundation

/// A pending scheduled message's change: the fields given change, the rest stay.
public struct ScheduledMessageUpdate: Encodable, Sendable {
    public var message: String?
    public var customType: String?
    public var data: String?
    public var mentionedUserIds: [String]?
    /// The new time to send at (ms).
    public var scheduledAt: Int64?

    public init(message: String? = nil, scheduledAt: Int64? = nil) {
        self.message = message
        self.scheduledAt = scheduledAt
    }
}

/// Which of the user's scheduled messages to list or count.
public struct ScheduledMessageQuery: Sendable {
    public var channelURL: String?
    /// `pending`, `sent`, `failed`, `canceled`: any of these (all when nil).
    public var statuses: [String]?
    /// `MESG` or `FILE`.
    public var messageType: String?

    public init(channelURL: String? = nil, statuses: [String]? = nil) {
        self.channelURL = channelURL
        self.statuses = statuses
    }

    var items: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let channelURL { items.append(URLQueryItem(name: "channel_url", value: channelURL)) }
        if let statuses { items.append(URLQueryItem(name: "status", value: statuses.joined(separator: ","))) }
        if let messageType { items.append(URLQueryItem(name: "message_type", value: messageType)) }
        return items
    }
}

// MARK: Scheduled messages (§13.3)
extension ConversationAPI {
    private func scheduledPath(_ channelURL: String, _ rest: String = "") -> String {
        channelPath(.group, channelURL, "/scheduled_messages\(rest)")
    }

    /// Schedules a user message to be sent at `at` (ms, 5 minutes to 30 days ahead by default).
    public func schedule(_ channelURL: String, _ params: UserMessageParams, at scheduledAt: Int64) async throws -> ScheduledMessage {
        // The scheduled send carries a dedup id of the server's own.
        var content = params
        content.dedupId = nil
        return try await client.rest().call("POST", scheduledPath(channelURL), body: Scheduled(content: content, scheduledAt: scheduledAt))
    }

    /// Uploads a file now (stored encrypted, its thumbnails made) to be sent as a file message at
    /// `at`; nobody can download it before then.
    public func scheduleFile(_ channelURL: String, _ params: FileMessageParams, at scheduledAt: Int64, progress: UploadProgress? = nil)
        async throws -> ScheduledMessage
    {
        var params = params
        params.dedupId = nil
        return try await client.rest().upload(
            scheduledPath(channelURL), params, extra: [("scheduled_at", String(scheduledAt))], progress: progress)
    }

    public func scheduledMessage(_ channelURL: String, id: Int64) async throws -> ScheduledMessage {
        try await client.rest().call("GET", scheduledPath(channelURL, "/\(id)"))
    }

    /// Changes a pending scheduled message: its text, fields or time.
    public func updateScheduled(_ channelURL: String, id: Int64, _ update: ScheduledMessageUpdate) async throws -> ScheduledMessage {
        try await client.rest().call("PUT", scheduledPath(channelURL, "/\(id)"), body: update)
    }

    public func cancelScheduled(_ channelURL: String, id: Int64) async throws -> ScheduledMessage {
        try await client.rest().call("DELETE", scheduledPath(channelURL, "/\(id)"))
    }

    public func sendScheduledNow(_ channelURL: String, id: Int64) async throws -> ScheduledMessage {
        try await client.rest().call("POST", scheduledPath(channelURL, "/\(id)/send_now"), body: EmptyBody())
    }

    /// The signed-in user's scheduled messages (of one channel, when given).
    public func scheduledMessages(channelURL: String? = nil, limit: Int = 20, token: String? = nil) async throws -> Page<ScheduledMessage> {
        try await scheduledMessages(ScheduledMessageQuery(channelURL: channelURL), limit: limit, token: token)
    }

    public func scheduledMessages(_ query: ScheduledMessageQuery, limit: Int = 20, token: String? = nil) async throws
        -> Page<ScheduledMessage>
    {
        let items = GroupChannelAPI.page(limit, token) + query.items
        return try await client.rest().call("GET", "/v3/scheduled_messages", query: items, as: ListBody<ScheduledMessage>.self).page
    }

    /// How many of the signed-in user's scheduled messages the query matches.
    public func scheduledMessageCount(_ query: ScheduledMessageQuery = ScheduledMessageQuery()) async throws -> Int {
        struct Body: Decodable { let count: Int }
        return try await client.rest().call("GET", "/v3/scheduled_messages/count", query: query.items, as: Body.self).count
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
