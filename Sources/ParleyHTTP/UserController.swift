import Hummingbird
import ParleyCore
import ParleyUsers

/// Users (API.md §2.2), session tokens (§2.3) and the invitation preference (§2.4).
struct UserController {
    let users: UserService
    let maxBodyBytes: Int

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
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        try caller.requireAdmin()
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let user = User(
            userID: try Validation.userID(try body.requiredString("user_id")),
            nickname: try Validation.text(try body.requiredString("nickname"), field: "nickname", max: Validation.maxNicknameLength),
            profileURL: try Validation.text(try body.string("profile_url") ?? "", field: "profile_url", max: Validation.maxProfileURLLength),
            createdAt: 0,
            metadata: try Validation.metadata(try body.stringMap("metadata") ?? [:])
        )
        let (created, token) = try await users.create(caller, NewUser(user: user, issueSessionToken: try body.bool("issue_session_token") ?? false))
        var dto = UserDTO(created)
        dto.session_token = token?.token
        dto.session_token_expires_at = token?.expiresAt
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
        return JSONResponse.make(ListDTO(key: "users", items: page.items.map(UserDTO.init), next: page.next))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let view = try await users.get(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.make(UserDTO(view))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        let userID = try context.pathParameter("user_id")
        try caller.requireActingAs(userID)
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let update = UserUpdate(
            nickname: try body.string("nickname").map { try Validation.text($0, field: "nickname", max: Validation.maxNicknameLength) },
            profileURL: try body.string("profile_url").map { try Validation.text($0, field: "profile_url", max: Validation.maxProfileURLLength) },
            isActive: try body.bool("is_active"),
            leaveAllWhenDeactivated: try body.bool("leave_all_when_deactivated") ?? true
        )
        return JSONResponse.make(UserDTO(try await users.update(caller, userID, update)))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await users.delete(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func issueToken(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        try caller.requireAdmin()
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let token = try await users.issueSessionToken(caller, try context.pathParameter("user_id"), expiresAt: try body.int64("expires_at"))
        return JSONResponse.make(SessionTokenDTO(token))
    }

    @Sendable func revokeTokens(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await users.revokeSessionTokens(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func invitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let autoAccept = try await users.invitationPreference(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.make(InvitationPreferenceDTO(auto_accept: autoAccept))
    }

    @Sendable func setInvitationPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        let userID = try context.pathParameter("user_id")
        try caller.requireActingAs(userID)
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let autoAccept = try body.bool("auto_accept") else { throw ParleyError.missing("auto_accept") }
        let saved = try await users.setInvitationPreference(caller, userID, autoAccept: autoAccept)
        return JSONResponse.make(InvitationPreferenceDTO(auto_accept: saved))
    }
}
