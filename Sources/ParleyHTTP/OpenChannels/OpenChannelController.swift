import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Open channels (API.md §8.1, §8.2): create, list, read, update, delete, operators, freeze,
/// and the participants (§8.3).
struct OpenChannelController {
    let channels: OpenChannelService
    let participants: ParticipantService
    let limits: Limits

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let channel = "open_channels/{channel_url}"
        routes.post("open_channels", use: create)
        routes.get("open_channels", use: list)
        routes.get(RouterPath(channel), use: get)
        routes.put(RouterPath(channel), use: update)
        routes.delete(RouterPath(channel), use: delete)
        routes.post(RouterPath(channel + "/operators"), use: addOperators)
        routes.get(RouterPath(channel + "/operators"), use: operators)
        routes.delete(RouterPath(channel + "/operators"), use: removeOperators)
        routes.put(RouterPath(channel + "/freeze"), use: freeze)
        routes.put(RouterPath(channel + "/enter"), use: enter)
        routes.put(RouterPath(channel + "/exit"), use: exit)
        routes.get(RouterPath(channel + "/participants"), use: participantList)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let new = try await request.decode(as: NewOpenChannelBody.self, context: context).validated(limits: limits)
        return JSONResponse.make(dto(try await channels.create(context.caller, new)), status: .created)
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        var filter = OpenChannelFilter()
        filter.nameContains = query.string("name_contains")
        filter.urlContains = query.string("url_contains")
        // `custom_type` (one) and `custom_types` (several): both given, both must hold.
        let one = query.string("custom_type").map { [$0] }
        let several = query.list("custom_types")
        if let one, let several {
            filter.customTypes = one.filter(several.contains)
        } else {
            filter.customTypes = one ?? several
        }
        filter.showFrozen = try query.bool("show_frozen", default: true)
        let page = try await channels.list(context.caller, filter, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "channels", page: page, dto))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(dto(try await channels.get(context.caller, try context.pathParameter("channel_url"))))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let update = try await request.decode(as: OpenChannelUpdateBody.self, context: context).validated(limits: limits)
        return JSONResponse.make(dto(try await channels.update(context.caller, try context.pathParameter("channel_url"), update)))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await channels.delete(context.caller, try context.pathParameter("channel_url"))
        return JSONResponse.empty()
    }

    @Sendable func addOperators(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: OperatorsBody.self, context: context)
        try await channels.addOperators(
            context.caller, try context.pathParameter("channel_url"),
            userIDs: try Validation.userIDs(body.operatorIDs, field: "operator_ids"))
        return try await operators(request, context)
    }

    @Sendable func operators(_ request: Request, _ context: CallerContext) async throws -> Response {
        let users = try await channels.operators(context.caller, try context.pathParameter("channel_url"))
        return JSONResponse.make(ListDTO(key: "operators", items: users.map(BasicUserDTO.init), next: ""))
    }

    @Sendable func removeOperators(_ request: Request, _ context: CallerContext) async throws -> Response {
        guard let ids = QueryParameters(request).list("operator_ids") else { throw ParleyError.missing("operator_ids") }
        try await channels.removeOperators(
            context.caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(ids, field: "operator_ids"))
        return JSONResponse.empty()
    }

    @Sendable func freeze(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: FreezeBody.self, context: context)
        return JSONResponse.make(dto(try await channels.freeze(context.caller, try context.pathParameter("channel_url"), body.freeze)))
    }

    /// `PUT …/enter` `{ user_id }` (the session user when absent): the channel after entering.
    @Sendable func enter(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<UserActionBody>.read(request, context)
        return JSONResponse.make(dto(try await participants.enter(action.caller, action.channelURL, userID: action.userID)))
    }

    @Sendable func exit(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<UserActionBody>.read(request, context)
        try await participants.exit(action.caller, action.channelURL, userID: action.userID)
        return JSONResponse.empty()
    }

    @Sendable func participantList(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await participants.list(context.caller, try context.pathParameter("channel_url"), limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "participants", page: page, ParticipantDTO.init))
    }

    func dto(_ channel: OpenChannel) -> OpenChannelDTO {
        OpenChannelDTO(channel: channel, maxMessageLength: limits.messageLength)
    }
}
