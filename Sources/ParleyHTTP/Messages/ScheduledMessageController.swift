import Hummingbird
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions
import ParleyRepresentations

/// Scheduled messages of group channels (API.md §13.3).
struct ScheduledMessageController {
    let scheduled: ScheduledMessageService
    let files: FileService
    let limits: Limits

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = "group_channels/{channel_url}/scheduled_messages"
        routes.post(RouterPath(base), use: create)
        routes.get(RouterPath("\(base)/{scheduled_message_id}"), use: get)
        routes.put(RouterPath("\(base)/{scheduled_message_id}"), use: update)
        // Sendbird's method for the same update.
        routes.post(RouterPath("\(base)/{scheduled_message_id}"), use: update)
        routes.delete(RouterPath("\(base)/{scheduled_message_id}"), use: cancel)
        routes.post(RouterPath("\(base)/{scheduled_message_id}/send_now"), use: sendNow)
        routes.get("scheduled_messages", use: list)
        routes.get("scheduled_messages/count", use: count)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        if let boundary = request.headers[.contentType].flatMap(MultipartFormReader.boundary) {
            return try await createUpload(request, context.caller, try context.pathParameter("channel_url"), boundary: boundary)
        }
        let body = try await request.decode(as: ScheduledMessageBody.self, context: context)
        let (content, scheduledAt) = try body.validated(caller: context.caller, limits: limits)
        let created = try await scheduled.create(context.caller, try context.pathParameter("channel_url"), content, at: scheduledAt)
        return JSONResponse.make(ScheduledMessageDTO(scheduled: created), status: .created)
    }

    /// A FILE message uploaded now and sent later: §5.1's form with `scheduled_at`.
    private func createUpload(_ request: Request, _ caller: Caller, _ channelURL: String, boundary: String) async throws -> Response {
        let created = try await scheduled.createUpload(caller, channelURL) {
            let form = try await MultipartFormReader(files: files, maxFieldBytes: limits.dataBytes + 1).read(request, boundary: boundary)
            guard let upload = form.upload else { throw ParleyError.missing("file") }
            do {
                guard let text = form.fields["scheduled_at"] else { throw ParleyError.missing("scheduled_at") }
                guard let scheduledAt = Int64(text) else { throw ParleyError.wrongType("scheduled_at", expected: .number) }
                return (ReceivedFile(upload: upload, form: try FileMessageInput(limits: limits).parse(form, caller: caller)), scheduledAt)
            } catch {
                upload.abort()
                throw error
            }
        }
        return JSONResponse.make(ScheduledMessageDTO(scheduled: created), status: .created)
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let found = try await scheduled.get(context.caller, try context.pathParameter("channel_url"), try Self.id(context))
        return JSONResponse.make(ScheduledMessageDTO(scheduled: found))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let change = try await request.decode(as: ScheduledMessageUpdateBody.self, context: context).validated(limits: limits)
        let changed = try await scheduled.update(context.caller, try context.pathParameter("channel_url"), try Self.id(context), change)
        return JSONResponse.make(ScheduledMessageDTO(scheduled: changed))
    }

    @Sendable func cancel(_ request: Request, _ context: CallerContext) async throws -> Response {
        let canceled = try await scheduled.cancel(context.caller, try context.pathParameter("channel_url"), try Self.id(context))
        return JSONResponse.make(ScheduledMessageDTO(scheduled: canceled))
    }

    @Sendable func sendNow(_ request: Request, _ context: CallerContext) async throws -> Response {
        let sent = try await scheduled.sendNow(context.caller, try context.pathParameter("channel_url"), try Self.id(context))
        return JSONResponse.make(ScheduledMessageDTO(scheduled: sent))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await scheduled.list(context.caller, try Self.filter(query), limit: limit, token: token)
        return JSONResponse.make(
            ListDTO(key: "scheduled_messages", page: page) { ScheduledMessageDTO(scheduled: $0) })
    }

    @Sendable func count(_ request: Request, _ context: CallerContext) async throws -> Response {
        let total = try await scheduled.count(context.caller, try Self.filter(QueryParameters(request)))
        return try JSONResponse.make(CountDTO(count: total))
    }

    private static func id(_ context: CallerContext) throws -> Int64 {
        try context.numberParameter("scheduled_message_id")
    }

    /// `channel_url`, `sender_id`, `status` (comma-separated, or `status[]`), `message_type`.
    private static func filter(_ query: QueryParameters) throws -> ScheduledMessageFilter {
        var filter = ScheduledMessageFilter()
        filter.channelURL = query.string("channel_url")
        filter.senderID = try query.string("sender_id").map { try Validation.userID($0) }
        filter.statuses = try (query.list("status") ?? query.list("status[]")).map { names in
            try names.map { name in
                guard let status = ScheduledStatus(rawValue: name) else {
                    throw ParleyError.invalidValue("status", "must be pending, sent, failed or canceled")
                }
                return status
            }
        }
        filter.messageType = try query.string("message_type").map { text in
            guard let type = MessageType(rawValue: text), type != .admin else {
                throw ParleyError.invalidValue("message_type", "must be MESG or FILE")
            }
            return type
        }
        return filter
    }
}

/// `{ "count": n }`
struct CountDTO: Encodable {
    let count: Int
}
