import Hummingbird
import ParleyChat
import ParleyCore

/// Operators and freezing of a group channel (API.md §3.4).
struct ChannelOperatorController {
    let operators: ChannelOperatorService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO
    let maxBodyBytes: Int

    var endpoints: [Endpoint] {
        [
            Endpoint(.post, "/v3/group_channels/{channel_url}/operators", add),
            Endpoint(.get, "/v3/group_channels/{channel_url}/operators", list),
            Endpoint(.delete, "/v3/group_channels/{channel_url}/operators", remove),
            Endpoint(.put, "/v3/group_channels/{channel_url}/freeze", freeze),
        ]
    }

    @Sendable func add(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let ids = try body.stringList("operator_ids") else { throw ParleyError.missing("operator_ids") }
        let url = try context.pathParameter("channel_url")
        try await operators.add(try context.requireActor(), url, userIDs: try Validation.userIDs(ids, field: "operator_ids"))
        return try await list(request, context)
    }

    @Sendable func list(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let users = try await operators.list(try context.requireActor(), try context.pathParameter("channel_url"))
        return JSONResponse.make(ListDTO(key: "operators", items: users.map(BasicUserDTO.init), next: ""))
    }

    @Sendable func remove(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        guard let ids = QueryParameters(request).list("operator_ids") else { throw ParleyError.missing("operator_ids") }
        try await operators.remove(
            try context.requireActor(), try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(ids, field: "operator_ids")
        )
        return JSONResponse.empty()
    }

    @Sendable func freeze(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let freeze = try body.bool("freeze") else { throw ParleyError.missing("freeze") }
        let view = try await operators.freeze(try context.requireActor(), try context.pathParameter("channel_url"), freeze)
        return JSONResponse.make(channelDTO(view))
    }
}
