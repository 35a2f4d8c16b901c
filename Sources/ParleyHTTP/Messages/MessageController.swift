import Hummingbird
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions
import ParleyRepresentations

/// The messages of one kind of channel (API.md §4.2–4.4, file messages §5.1, §8.2).
struct MessageController {
    let kind: ChannelKind
    let messages: MessageService
    let files: FileService
    let limits: Limits
    let clock: Clock

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = "\(kind.pathSegment)/{channel_url}/messages"
        routes.post(RouterPath(base), use: send)
        routes.get(RouterPath(base), use: history)
        routes.get(RouterPath(base + "/total_count"), use: totalCount)
        routes.get(RouterPath(base + "/{message_id}"), use: get)
        routes.put(RouterPath(base + "/{message_id}"), use: update)
        routes.delete(RouterPath(base + "/{message_id}"), use: delete)
        routes.post(RouterPath(base + "/{message_id}/translation"), use: translate)
        routes.get(RouterPath(base + "/{message_id}/thread"), use: thread)
        return routes
    }

    @Sendable func send(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        if let boundary = request.headers[.contentType].flatMap(MultipartFormReader.boundary) {
            return try await sendUpload(request, caller, try context.pathParameter("channel_url"), boundary: boundary)
        }
        let new = try await request.decode(as: NewMessageBody.self, context: context).validated(caller: caller, limits: limits)
        let (message, created) = try await messages.send(caller, kind, try context.pathParameter("channel_url"), new)
        return JSONResponse.make(MessageDTO(message: message), status: created ? .created : .ok)
    }

    /// A file upload: the form is read here while `MessageService.sendFile` does the rest.
    private func sendUpload(_ request: Request, _ caller: Caller, _ channelURL: String, boundary: String) async throws -> Response {
        let (message, created) = try await messages.sendFile(caller, kind, channelURL) {
            let form = try await MultipartFormReader(files: files, maxFieldBytes: limits.dataBytes + 1).read(request, boundary: boundary)
            guard let upload = form.upload else { throw ParleyError.missing("file") }
            do {
                return ReceivedFile(upload: upload, form: try FileMessageInput(limits: limits).parse(form, caller: caller))
            } catch {
                upload.abort()
                throw error
            }
        }
        return JSONResponse.make(MessageDTO(message: message), status: created ? .created : .ok)
    }

    @Sendable func history(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        var history = try HistoryParameters.read(query, now: clock.nowMillis)
        history.replies = try HistoryParameters.replyFilter(query)
        let page = try await messages.history(
            context.caller, kind, try context.pathParameter("channel_url"), history, viewerID: try query.userID()
        )
        return JSONResponse.make(MessageListDTO(window: page))
    }

    /// A thread's replies (API.md §13.1), paged like history, with their parent.
    @Sendable func thread(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let history = try HistoryParameters.read(query, now: clock.nowMillis)
        let (parent, replies) = try await messages.thread(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), history, viewerID: try query.userID()
        )
        return JSONResponse.make(MessageListDTO(window: replies, parent: parent))
    }

    @Sendable func totalCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        let total = try await messages.totalCount(
            context.caller, kind, try context.pathParameter("channel_url"), viewerID: try QueryParameters(request).userID()
        )
        return try JSONResponse.make(TotalDTO(total: total))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let message = try await messages.get(context.caller, kind, try context.pathParameter("channel_url"), try context.messageID())
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let update = try await request.decode(as: MessageUpdateBody.self, context: context).validated(limits: limits)
        let message = try await messages.update(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), update
        )
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func translate(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: TranslationRequestBody.self, context: context)
        let languages = try MessageFieldRules.targetLanguages(body.targetLangs) ?? []
        let message = try await messages.translate(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), into: languages)
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await messages.delete(context.caller, kind, try context.pathParameter("channel_url"), try context.messageID())
        return JSONResponse.empty()
    }
}

/// `{ "total": n }`
struct TotalDTO: Encodable {
    let total: Int
}
