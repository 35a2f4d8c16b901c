import Hummingbird
import ParleyChat
import ParleyCore

/// Operators and freezing of a group channel (API.md §3.4).
struct ChannelOperatorController {
    let operators: ChannelOperatorService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO
    let maxBodyBytes: Int

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("group_channels/{channel_url}/operators", use: add)
        routes.get("group_channels/{channel_url}/operators", use: list)
        routes.delete("group_channels/{channel_url}/operators", use: remove)
        routes.put("group_channels/{channel_url}/freeze", use: freeze)
        return routes
    }

    @Sendable func add(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let ids = try body.stringList("operator_ids") else { throw ParleyError.missing("operator_ids") }
        let url = try context.pathParameter("channel_url")
        try await operators.add(context.caller, url, userIDs: try Validation.userIDs(ids, field: "operator_ids"))
        return try await list(request, context)
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let users = try await operators.list(context.caller, try context.pathParameter("channel_url"))
        return JSONResponse.make(ListDTO(key: "operators", items: users.map(BasicUserDTO.init), next: ""))
    }

    @Sendable func remove(_ request: Request, _ context: CallerContext) async throws -> Response {
        guard let ids = QueryParameters(request).list("operator_ids") else { throw ParleyError.missing("operator_ids") }
        try await operators.remove(
            context.caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(ids, field: "operator_ids")
        )
        return JSONResponse.empty()
    }

    @Sendable func freeze(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let freeze = try body.bool("freeze") else { throw ParleyError.missing("freeze") }
        let view = try await operators.freeze(context.caller, try context.pathParameter("channel_url"), freeze)
        return JSONResponse.make(channelDTO(view))
    }
}
