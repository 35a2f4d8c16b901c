import Hummingbird
import ParleyChat
import ParleyCore

/// A group channel's metadata map (API.md §3.10): `/v3/group_channels/{channel_url}/metadata[/{key}]`.
struct ChannelMetadataController {
    let metadata: ChannelMetadataService
    let maxBodyBytes: Int

    var endpoints: [Endpoint] {
        let base = "/v3/group_channels/{channel_url}/metadata"
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
        JSONResponse.make(try await metadata.all(try context.requireActor(), try context.pathParameter("channel_url")))
    }

    @Sendable func create(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        try await metadata.create(try context.requireActor(), try context.pathParameter("channel_url"), map)
        return JSONResponse.make(map, status: .created)
    }

    @Sendable func update(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let map = try Validation.metadata(try body.requiredStringMap("metadata"))
        try await metadata.update(try context.requireActor(), try context.pathParameter("channel_url"), map, upsert: try body.bool("upsert") ?? true)
        return JSONResponse.make(map)
    }

    @Sendable func deleteAll(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await metadata.deleteAll(try context.requireActor(), try context.pathParameter("channel_url"))
        return JSONResponse.empty()
    }

    @Sendable func value(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let key = try context.pathParameter("key")
        let value = try await metadata.value(try context.requireActor(), try context.pathParameter("channel_url"), key: key)
        return JSONResponse.make([key: value])
    }

    @Sendable func updateValue(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        let key = try context.pathParameter("key")
        let map = try Validation.metadata([key: try body.requiredString("value")])
        try await metadata.update(try context.requireActor(), try context.pathParameter("channel_url"), map, upsert: try body.bool("upsert") ?? true)
        return JSONResponse.make(map)
    }

    @Sendable func delete(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        try await metadata.delete(try context.requireActor(), try context.pathParameter("channel_url"), key: try context.pathParameter("key"))
        return JSONResponse.empty()
    }
}
