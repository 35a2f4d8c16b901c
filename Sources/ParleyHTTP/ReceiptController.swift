import Hummingbird
import ParleyChat
import ParleyCore

/// Read and delivery receipts and unread counts (API.md §4.7).
struct ReceiptController {
    let receipts: ReceiptService
    let maxBodyBytes: Int

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
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: maxBodyBytes)
        try await receipts.markAsRead(action.caller, action.channelURL, userID: action.userID, timestamp: try action.body.int64("timestamp"))
        return JSONResponse.empty()
    }

    @Sendable func markAsDelivered(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: maxBodyBytes)
        let ts = try await receipts.markAsDelivered(action.caller, action.channelURL, userID: action.userID)
        return JSONResponse.make(TimestampDTO(ts: ts))
    }

    @Sendable func unreadCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        guard let userIDs = QueryParameters(request).list("user_ids") ?? caller.userID.map({ [$0] }) else {
            throw ParleyError.missing("user_ids")
        }
        let counts = try await receipts.unreadCounts(
            caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(userIDs, field: "user_ids")
        )
        return JSONResponse.make(UnreadMapDTO(counts: counts))
    }

    @Sendable func markAllAsRead(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        try await receipts.markAllAsRead(
            context.caller, userID: try context.pathParameter("user_id"),
            channelURLs: try body.stringList("channel_urls")
        )
        return JSONResponse.empty()
    }

    @Sendable func unreadMessageCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let superMode: TriStateMode = switch query.string("super_mode") ?? "all" {
        case "all": .all
        case "super": .only
        case "nonsuper": .excluded
        default: throw ParleyError.invalidValue("super_mode", "must be one of all, super, nonsuper")
        }
        let unread = try await receipts.userUnread(
            context.caller, userID: try context.pathParameter("user_id"),
            customTypes: query.list("custom_types"), superMode: superMode
        )
        return JSONResponse.make(UnreadCountDTO(count: unread.messages))
    }

    @Sendable func unreadChannelCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let unread = try await receipts.userUnread(
            context.caller, userID: try context.pathParameter("user_id"), customTypes: nil, superMode: .all
        )
        return JSONResponse.make(UnreadCountDTO(count: unread.channels))
    }
}

struct TimestampDTO: JSONWritable {
    let ts: Int64
    func write(to json: inout JSONWriter) { json.object { $0.field("ts", ts) } }
}

struct UnreadCountDTO: JSONWritable {
    let count: Int
    func write(to json: inout JSONWriter) { json.object { $0.field("unread_count", count) } }
}

/// `{ "unread": { "user_id": n } }`
struct UnreadMapDTO: JSONWritable {
    let counts: [String: Int]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("unread")
            json.object { json in
                for entry in counts.sorted(by: { $0.key < $1.key }) { json.member(entry.key, entry.value) }
            }
        }
    }
}
