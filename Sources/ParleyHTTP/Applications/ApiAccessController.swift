import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyUsers

/// Secondary API tokens and the IP allow-list (API.md §14.7), for the admin: Sendbird's
/// `/v3/applications/api_tokens` and `/v3/applications/settings/ip_whitelist`.
struct ApiAccessController {
    let access: ApiAccess

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("applications/api_tokens", use: generate)
        routes.get("applications/api_tokens", use: list)
        routes.get("applications/api_tokens/{api_token}", use: view)
        routes.delete("applications/api_tokens/{api_token}", use: revoke)
        routes.get("applications/settings/ip_whitelist", use: allowList)
        routes.put("applications/settings/ip_whitelist", use: allow)
        routes.delete("applications/settings/ip_whitelist", use: disallow)
        return routes
    }

    @Sendable func generate(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: GenerateTokenBody.self, context: context)
        let made = try await access.generate(
            context.caller, presentedToken: request.headers[AuthenticationMiddleware.apiTokenHeader], masterToken: body.masterToken)
        return try JSONResponse.make(ApiTokenDTO(token: made.token, createdAt: made.createdAt))
    }

    /// Each token by its selector: the first 16 characters (the rest is never shown again).
    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let tokens = try await access.tokens(context.caller)
        return try JSONResponse.make(["api_tokens": tokens.map { ApiTokenDTO(token: $0.selector, createdAt: $0.createdAt) }])
    }

    @Sendable func view(_ request: Request, _ context: CallerContext) async throws -> Response {
        let token = try await access.token(context.caller, named: try context.pathParameter("api_token"))
        return try JSONResponse.make(ApiTokenDTO(token: token.selector, createdAt: token.createdAt))
    }

    @Sendable func revoke(_ request: Request, _ context: CallerContext) async throws -> Response {
        let token = try await access.revoke(context.caller, named: try context.pathParameter("api_token"))
        return try JSONResponse.make(ApiTokenDTO(token: token.selector, createdAt: token.createdAt))
    }

    @Sendable func allowList(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(["ip_whitelist_addresses": try await access.allowList(context.caller)])
    }

    @Sendable func allow(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: AllowListBody.self, context: context)
        return try JSONResponse.make(["ip_whitelist_addresses": try await access.allow(context.caller, body.addresses ?? [])])
    }

    /// `?ip_whitelist_addresses=a,b` (or the key repeated).
    @Sendable func disallow(_ request: Request, _ context: CallerContext) async throws -> Response {
        let entries = QueryParameters(request).all("ip_whitelist_addresses")
        return try JSONResponse.make(["ip_whitelist_addresses": try await access.disallow(context.caller, entries)])
    }
}

/// `POST /v3/applications/api_tokens`: `HTTP_API_TOKEN`, the master token, as Sendbird asks.
struct GenerateTokenBody: Decodable {
    @Checked var masterToken: String?

    enum CodingKeys: String, CodingKey {
        case masterToken = "HTTP_API_TOKEN"
    }
}

/// `PUT /v3/applications/settings/ip_whitelist`.
struct AllowListBody: Decodable {
    @Checked var addresses: [String]?

    enum CodingKeys: String, CodingKey {
        case addresses = "ip_whitelist_addresses"
    }
}

/// `{ token, created_at }`.
struct ApiTokenDTO: Encodable {
    let token: String
    let createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case token
        case createdAt = "created_at"
    }
}
