import Hummingbird
import ParleyCore
import ParleyUsers

/// A user's metadata map (API.md §2.2): `/v3/users/{user_id}/metadata[/{key}]`.
struct UserMetadataController {
    let metadata: UserMetadataService
    let maxBodyBytes: Int

    var endpoints: [Endpoint] {
        [
            Endpoint(.get, "/v3/users/{user_id}/metadata", all),
            Endpoint(.post, "/v3/users/{user_id}/metadata", create),
            Endpoint(.put, "/v3/users/{user_id}/metadata", update),
            Endpoint(.delete, "/v3/users/{user_id}/metadata", deleteAll),
            Endpoint(.get, "/v3/users/{user_id}/metadata/{key}", value),
            Endpoint(.put, "/v3/users/{user_id}/metadata/{key}", updateValue),
            Endpoint(.delete, "/v3/users/{user_id}/metadata/{key}", delete),
        ]
    }

    @Sendable func all(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        JSONResponse.make(try await metadata.all(try context.requireActor(), try context.pathParameter("user_id")))
    }

    @Sendable func create(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let (actor, userID, body) = try await prepare(request, context)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        return JSONResponse.make(try await metadata.create(actor, userID, map), status: .created)
    }

    @Sendable func update(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let (actor, userID, body) = try await prepare(request, context)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        return JSONResponse.make(try await metadata.update(actor, userID, map, upsert: try body.bool("upsert") ?? true))
    }

    @Sendable func deleteAll(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await metadata.deleteAll(try context.requireActor(), try context.pathParameter("user_id"))
        return JSONResponse.empty()
    }

    @Sendable func value(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let key = try context.pathParameter("key")
        let value = try await metadata.value(try context.requireActor(), try context.pathParameter("user_id"), key: key)
        return JSONResponse.make([key: value])
    }

    @Sendable func updateValue(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let (actor, userID, body) = try await prepare(request, context)
        let key = try context.pathParameter("key")
        let map = try Validation.metadata([key: try body.requiredString("value")])
        return JSONResponse.make(try await metadata.update(actor, userID, map, upsert: try body.bool("upsert") ?? true))
    }

    @Sendable func delete(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await metadata.delete(try context.requireActor(), try context.pathParameter("user_id"), key: try context.pathParameter("key"))
        return JSONResponse.empty()
    }

    /// The caller, the addressed user and the body, with the permission checked before the body is read.
    private func prepare(_ request: Request, _ context: ParleyRequestContext) async throws -> (Actor, String, JSONBody) {
        let actor = try context.requireActor()
        let userID = try context.pathParameter("user_id")
        try actor.requireActingAs(userID)
        return (actor, userID, try await JSONBody.read(request, maxBytes: maxBodyBytes))
    }
}
