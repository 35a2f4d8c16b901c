import Hummingbird
import ParleyCore
import ParleyUsers

/// Users (API.md §2.2), session tokens (§2.3) and the invitation preference (§2.4).
struct UserController {
    let users: UserService
    let maxBodyBytes: Int

    var endpoints: [Endpoint] {
        [
            Endpoint(.post, "/v3/users", create),
            Endpoint(.get, "/v3/users", list),
            Endpoint(.get, "/v3/users/{user_id}", get),
            Endpoint(.put, "/v3/users/{user_id}", update),
            Endpoint(.delete, "/v3/users/{user_id}", delete),
            Endpoint(.post, "/v3/users/{user_id}/token", issueToken),
            Endpoint(.delete, "/v3/users/{user_id}/token", revokeTokens),
            Endpoint(.get, "/v3/users/{user_id}/channel_invitation_preference", invitationPreference),
            Endpoint(.put, "/v3/users/{user_id}/channel_invitation_preference", setInvitationPreference),
        ]
    }

    @Sendable func create(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let actor = try context.requireActor()
        try actor.requireAdmin()
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let user = User(
            userID: try Validation.userID(try body.requiredString("user_id")),
            nickname: try Validation.text(try body.requiredString("nickname"), field: "nickname", max: Validation.maxNicknameLength),
            profileURL: try Validation.text(try body.string("profile_url") ?? "", field: "profile_url", max: Validation.maxProfileURLLength),
            createdAt: 0,
            metadata: try Validation.metadata(try body.stringMap("metadata") ?? [:])
        )
        let (created, token) = try await users.create(actor, NewUser(user: user, issueSessionToken: try body.bool("issue_session_token") ?? false))
        var dto = UserDTO(created)
        dto.session_token = token?.token
        dto.session_token_expires_at = token?.expiresAt
        return JSONResponse.make(dto, status: .created)
    }

    @Sendable func list(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let actor = try context.requireActor()
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let filter = UserFilter(
            userIDs: query.list("user_ids"),
            nicknameStartsWith: query.string("nickname_startswith"),
            activeMode: try query.choice("active_mode", default: ActiveMode.activated)
        )
        let page = try await users.list(actor, filter: filter, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "users", items: page.items.map(UserDTO.init), next: page.next))
    }

    @Sendable func get(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let view = try await users.get(try context.requireActor(), try context.pathParameter("user_id"))
        return JSONResponse.make(UserDTO(view))
    }

    @Sendable func update(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let actor = try context.requireActor()
        let userID = try context.pathParameter("user_id")
        try actor.requireActingAs(userID)
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let update = UserUpdate(
            nickname: try body.string("nickname").map { try Validation.text($0, field: "nickname", max: Validation.maxNicknameLength) },
            profileURL: try body.string("profile_url").map { try Validation.text($0, field: "profile_url", max: Validation.maxProfileURLLength) },
            isActive: try body.bool("is_active"),
            leaveAllWhenDeactivated: try body.bool("leave_all_when_deactivated") ?? true
        )
        return JSONResponse.make(UserDTO(try await users.update(actor, userID, update)))
    }

    @Sendable func delete(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await users.delete(try context.requireActor(), try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func issueToken(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let actor = try context.requireActor()
        try actor.requireAdmin()
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let token = try await users.issueSessionToken(actor, try context.pathParameter("user_id"), expiresAt: try body.int64("expires_at"))
        return JSONResponse.make(SessionTokenDTO(token))
    }

    @Sendable func revokeTokens(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await users.revokeSessionTokens(try context.requireActor(), try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func invitationPreference(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let autoAccept = try await users.invitationPreference(try context.requireActor(), try context.pathParameter("user_id"))
        return JSONResponse.make(InvitationPreferenceDTO(auto_accept: autoAccept))
    }

    @Sendable func setInvitationPreference(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let actor = try context.requireActor()
        let userID = try context.pathParameter("user_id")
        try actor.requireActingAs(userID)
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let autoAccept = try body.bool("auto_accept") else { throw ParleyError.missing("auto_accept") }
        let saved = try await users.setInvitationPreference(actor, userID, autoAccept: autoAccept)
        return JSONResponse.make(InvitationPreferenceDTO(auto_accept: saved))
    }
}
