import Hummingbird
import ParleyChat
import ParleyCore
import ParleyUsers

/// A service owning string-map metadata: a user's or a channel's. Each checks its own permissions.
protocol MetadataService: Sendable {
    func all(_ actor: Actor, _ ownerID: String) async throws -> [String: String]
    func value(_ actor: Actor, _ ownerID: String, key: String) async throws -> String
    func create(_ actor: Actor, _ ownerID: String, _ map: [String: String]) async throws
    func update(_ actor: Actor, _ ownerID: String, _ map: [String: String], upsert: Bool) async throws
    func delete(_ actor: Actor, _ ownerID: String, key: String) async throws
    func deleteAll(_ actor: Actor, _ ownerID: String) async throws
}

extension UserMetadataService: MetadataService {}
extension ChannelMetadataService: MetadataService {}

/// `…/metadata[/{key}]` for users (API.md §2.2) and group channels (§3.10).
struct MetadataController<Service: MetadataService> {
    let service: Service
    /// The owner's path, e.g. `/v3/users/{user_id}`, and the name of its capture.
    let ownerPath: String
    let ownerParameter: String
    let maxBodyBytes: Int

    var endpoints: [Endpoint] {
        let base = ownerPath + "/metadata"
        return [
            Endpoint(.get, base, all),
            Endpoint(.post, base, create),
            Endpoint(.put, base, update),
            Endpoint(.delete, base, deleteAll),
            Endpoint(.get, base + "/{key}", value),
            Endpoint(.put, base + "/{key}", updateValue),
            Endpoint(.delete, base + "/{key}", delete),
        ]
    }

    @Sendable func all(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        JSONResponse.make(try await service.all(try context.requireActor(), try context.pathParameter(ownerParameter)))
    }

    @Sendable func create(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        try await service.create(try context.requireActor(), try context.pathParameter(ownerParameter), map)
        return JSONResponse.make(map, status: .created)
    }

    @Sendable func update(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        try await service.update(try context.requireActor(), try context.pathParameter(ownerParameter), map, upsert: try body.bool("upsert") ?? true)
        return JSONResponse.make(map)
    }

    @Sendable func deleteAll(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await service.deleteAll(try context.requireActor(), try context.pathParameter(ownerParameter))
        return JSONResponse.empty()
    }

    @Sendable func value(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let key = try context.pathParameter("key")
        let value = try await service.value(try context.requireActor(), try context.pathParameter(ownerParameter), key: key)
        return JSONResponse.make([key: value])
    }

    @Sendable func updateValue(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let key = try context.pathParameter("key")
        let map = try Validation.metadata([key: try body.requiredString("value")])
        try await service.update(try context.requireActor(), try context.pathParameter(ownerParameter), map, upsert: try body.bool("upsert") ?? true)
        return JSONResponse.make(map)
    }

    @Sendable func delete(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await service.delete(try context.requireActor(), try context.pathParameter(ownerParameter), key: try context.pathParameter("key"))
        return JSONResponse.empty()
    }
}
