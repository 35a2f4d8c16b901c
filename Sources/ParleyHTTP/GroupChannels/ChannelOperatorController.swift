import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Operators and freezing of a group channel (API.md §3.4).
struct ChannelOperatorController {
    let operators: ChannelOperatorService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO

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
        let body = try await request.decode(as: OperatorsBody.self, context: context)
        let url = try context.pathParameter("channel_url")
        try await operators.add(context.caller, url, userIDs: try Validation.userIDs(body.operatorIDs, field: "operator_ids"))
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
        let body = try await request.decode(as: FreezeBody.self, context: context)
        let view = try await operators.freeze(context.caller, try context.pathParameter("channel_url"), body.freeze)
        return JSONResponse.make(channelDTO(view))
    }
}

/// `POST …/operators`.
struct OperatorsBody: Decodable {
    @Checked var operatorIDs: [String]

    enum CodingKeys: String, CodingKey {
        case operatorIDs = "operator_ids"
    }
}

/// `PUT …/freeze`.
struct FreezeBody: Decodable {
    @Checked var freeze: Bool
}
