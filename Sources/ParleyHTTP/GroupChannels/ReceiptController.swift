import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions

/// Read and delivery receipts and unread counts (API.md §4.7).
struct ReceiptController {
    let receipts: ReceiptService

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let messages = "group_channels/{channel_url}/messages"
        routes.put(RouterPath(messages + "/mark_as_read"), use: markAsRead)
        routes.put(RouterPath(messages + "/mark_as_delivered"), use: markAsDelivered)
        routes.get(RouterPath(messages + "/unread_count"), use: unreadCount)
        routes.put("users/{user_id}/mark_as_read_all", use: markAllAsRead)
        routes.get("users/{user_id}/unread_message_count", use: unreadMessageCount)
        routes.get("users/{user_id}/unread_channel_count", use: unreadChannelCount)
        return routes
    }

    @Sendable func markAsRead(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<MarkAsReadBody>.read(request, context)
        try await receipts.markAsRead(action.caller, action.channelURL, userID: action.userID, timestamp: action.body.timestamp)
        return JSONResponse.empty()
    }

    @Sendable func markAsDelivered(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<UserActionBody>.read(request, context)
        let ts = try await receipts.markAsDelivered(action.caller, action.channelURL, userID: action.userID)
        return try JSONResponse.make(TimestampDTO(ts: ts))
    }

    @Sendable func unreadCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        guard let userIDs = QueryParameters(request).list("user_ids") ?? caller.userID.map({ [$0] }) else {
            throw ParleyError.missing("user_ids")
        }
        let counts = try await receipts.unreadCounts(
            caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(userIDs, field: "user_ids")
        )
        return try JSONResponse.make(UnreadMapDTO(unread: counts))
    }

    @Sendable func markAllAsRead(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MarkAllAsReadBody.self, context: context)
        try await receipts.markAllAsRead(context.caller, userID: try context.pathParameter("user_id"), channelURLs: body.channelURLs)
        return JSONResponse.empty()
    }

    @Sendable func unreadMessageCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let superMode = try query.mode("super_mode", only: "super", excluded: "nonsuper")
        let unread = try await receipts.userUnread(
            context.caller, userID: try context.pathParameter("user_id"),
            customTypes: query.list("custom_types"), superMode: superMode
        )
        return try JSONResponse.make(UnreadCountDTO(unreadCount: unread.messages))
    }

    @Sendable func unreadChannelCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let unread = try await receipts.userUnread(
            context.caller, userID: try context.pathParameter("user_id"), customTypes: nil, superMode: .all
        )
        return try JSONResponse.make(UnreadCountDTO(unreadCount: unread.channels))
    }
}

/// The answer to `mark_as_delivered`: the delivery timestamp.
struct TimestampDTO: Encodable {
    let ts: Int64
}

/// `{ "unread_count": n }`
struct UnreadCountDTO: Encodable {
    let unreadCount: Int

    enum CodingKeys: String, CodingKey {
        case unreadCount = "unread_count"
    }
}

/// `{ "unread": { "user_id": n } }`
struct UnreadMapDTO: Encodable {
    let unread: [String: Int]
}

/// `PUT …/mark_as_read`: up to which message (`timestamp`, default the newest).
struct MarkAsReadBody: Decodable, ActsForUser {
    @Checked var userID: String?
    @Checked var timestamp: Int64?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case timestamp
    }
}

/// `PUT /v3/users/{user_id}/mark_as_read_all`: the channels (all when absent).
struct MarkAllAsReadBody: Decodable {
    @Checked var channelURLs: [String]?

    enum CodingKeys: String, CodingKey {
        case channelURLs = "channel_urls"
    }
}
