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

    /// Tells the channel the user is typing (send again every few seconds while they type; it ends
    /// by itself 10 s after the last, or when they send a message).
    public func startTyping(_ channelURL: String) async throws {
        try await client.connection().send(["type": "typing_start", "channel_url": channelURL])
    }

    public func endTyping(_ channelURL: String) async throws {
        try await client.connection().send(["type": "typing_end", "channel_url": channelURL])
    }
}
