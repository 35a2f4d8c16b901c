import Foundation

extension ParleyClient {
    /// Read receipts, unread counts and typing (API.md §4.5, §6), as the signed-in user.
    public var receipts: ReceiptAPI { ReceiptAPI(client: self) }
}

public struct ReceiptAPI: Sendable {
    let client: ParleyClient

    /// Marks everything in the channel read: the others get `read`, the user's counts drop.
    public func markAsRead(_ channelURL: String) async throws {
        try await client.rest().call(
            "PUT", "/v3/group_channels/\(RESTClient.segment(channelURL))/messages/mark_as_read", body: EmptyBody())
    }

    public func markAsDelivered(_ channelURL: String) async throws {
        try await client.rest().call(
            "PUT", "/v3/group_channels/\(RESTClient.segment(channelURL))/messages/mark_as_delivered", body: EmptyBody())
    }

    /// The user's unread messages over all their joined channels.
    public func totalUnreadMessageCount() async throws -> Int {
        let rest = try client.rest()
        struct Body: Decodable { let unreadCount: Int }
        return try await rest.call("GET", "/v3/users/\(RESTClient.segment(rest.credentials.userId))/unread_message_count", as: Body.self)
            .unreadCount
    }

    /// How many of the user's joined channels have unread messages.
    public func unreadChannelCount() async throws -> Int {
        let rest = try client.rest()
        struct Body: Decodable { let unreadCount: Int }
        return try await rest.call("GET", "/v3/users/\(RESTClient.segment(rest.credentials.userId))/unread_channel_count", as: Body.self)
            .unreadCount
    }

    /// The user's unread messages in one channel.
    public func unreadMessageCount(_ channelURL: String) async throws -> Int {
        let rest = try client.rest()
        struct Body: Decodable { let unread: [String: Int] }
        let body = try await rest.call("GET", "/v3/group_channels/\(RESTClient.segment(channelURL))/messages/unread_count", as: Body.self)
        return body.unread[rest.credentials.userId] ?? 0
    }

    /// Marks every joined channel read (or those given).
    public func markAllAsRead(channelURLs: [String]? = nil) async throws {
        let rest = try client.rest()
        try await rest.call(
            "PUT", "/v3/users/\(RESTClient.segment(rest.credentials.userId))/mark_as_read_all",
            body: channelURLs.map { ["channel_urls": $0] } ?? [:])
    }

    /// Tells the channel the user is typing (send again every few seconds while they type; it ends
    /// by itself 10 s after the last, or when they send a message).
    public func startTyping(_ channelURL: String) async throws {
        try await client.connection().send(["type": "typing_start", "channel_url": channelURL])
    }

    public func endTyping(_ channelURL: String) async throws {
        try await client.connection().send(["type": "typing_end", "channel_url": channelURL])
    }
}
