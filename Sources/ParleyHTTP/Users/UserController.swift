import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyUsers

/// Users (API.md §2.2), session tokens (§2.3) and the invitation preference (§2.4).
struct UserController {
    let users: UserService

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("users", use: create)
        routes.get("users", use: list)
        routes.get("users/{user_id}", use: get)
        routes.put("users/{user_id}", use: update)
        routes.delete("users/{user_id}", use: delete)
        routes.post("users/{user_id}/token", use: issueToken)
        routes.delete("users/{user_id}/token", use: revokeTokens)
        routes.get("users/{user_id}/channel_invitation_preference", use: invitationPreference)
        routes.put("users/{user_id}/channel_invitation_preference", use: setInvitationPreference)
        routes.get("applications/default_channel_invitation_preference", use: defaultInvitationPreference)
        routes.put("applications/default_channel_invitation_preference", use: setDefaultInvitationPreference)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let new = try await request.decode(as: NewUserBody.self, context: context).validated()
        let (created, token) = try await users.create(context.caller, new)
        var dto = UserDTO(created)
        dto.sessionToken = token?.token
        dto.sessionTokenExpiresAt = token?.expiresAt
        return JSONResponse.make(dto, status: .created)
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let filter = UserFilter(
            userIDs: query.list("user_ids"),
            nicknameStartsWith: query.string("nickname_startswith"),
            activeMode: try query.choice("active_mode", default: ActiveMode.activated)
        )
        let page = try await users.list(caller, filter: filter, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "users", page: page, UserDTO.init))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let view = try await users.get(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.make(UserDTO(view))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let userID = try context.pathParameter("user_id")
        let update = try await request.decode(as: UserUpdateBody.self, context: context).validated()
        return JSONResponse.make(UserDTO(try await users.update(context.caller, userID, update)))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await users.delete(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func issueToken(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: SessionTokenBody.self, context: context)
        let token = try await users.issueSessionToken(context.caller, try context.pathParameter("user_id"), expiresAt: body.expiresAt)
        return try JSONResponse.make(SessionTokenDTO(token))
    }

    @Sendable func revokeTokens(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await users.revokeSessionTokens(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func invitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let autoAccept = try await users.invitationPreference(context.caller, try context.pathParameter("user_id"))
        return try JSONResponse.make(InvitationPreferenceDTO(autoAccept: autoAccept))
    }

    @Sendable func setInvitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let userID = try context.pathParameter("user_id")
        let body = try await request.decode(as: InvitationPreferenceBody.self, context: context)
        let saved = try await users.setInvitationPreference(context.caller, userID, autoAccept: body.autoAccept)
        return try JSONResponse.make(InvitationPreferenceDTO(autoAccept: saved))
    }

    /// The application's default for users who have not set theirs (API.md §14.7): `{ "auto_accept": … }`.
    @Sendable func defaultInvitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let autoAccept = try await users.defaultInvitationPreference(context.caller)
        return try JSONResponse.make(InvitationPreferenceDTO(autoAccept: autoAccept))
    }

    @Sendable func setDefaultInvitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: InvitationPreferenceBody.self, context: context)
        let saved = try await users.setDefaultInvitationPreference(context.caller, autoAccept: body.autoAccept)
        return try JSONResponse.make(InvitationPreferenceDTO(autoAccept: saved))
    }
}
