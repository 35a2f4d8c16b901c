import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyUsers

/// A service owning string-map metadata: a user's or a channel's. Each checks its own permissions.
protocol MetadataService: Sendable {
    func all(_ caller: Caller, _ ownerID: String) async throws -> [String: String]
    func value(_ caller: Caller, _ ownerID: String, key: String) async throws -> String
    func create(_ caller: Caller, _ ownerID: String, _ map: [String: String]) async throws
    func update(_ caller: Caller, _ ownerID: String, _ map: [String: String], upsert: Bool) async throws
    func delete(_ caller: Caller, _ ownerID: String, key: String) async throws
    func deleteAll(_ caller: Caller, _ ownerID: String) async throws
}

extension UserMetadataService: MetadataService {}

/// The metadata of the channels of one kind.
struct ChannelMetadataOfKind: MetadataService {
    let service: ChannelMetadataService
    let kind: ChannelKind

    func all(_ caller: Caller, _ ownerID: String) async throws -> [String: String] {
        try await service.all(caller, kind, ownerID)
    }
    func value(_ caller: Caller, _ ownerID: String, key: String) async throws -> String {
        try await service.value(caller, kind, ownerID, key: key)
    }
    func create(_ caller: Caller, _ ownerID: String, _ map: [String: String]) async throws {
        try await service.create(caller, kind, ownerID, map)
    }
    func update(_ caller: Caller, _ ownerID: String, _ map: [String: String], upsert: Bool) async throws {
        try await service.update(caller, kind, ownerID, map, upsert: upsert)
    }
    func delete(_ caller: Caller, _ ownerID: String, key: String) async throws {
        try await service.delete(caller, kind, ownerID, key: key)
    }
    func deleteAll(_ caller: Caller, _ ownerID: String) async throws {
        try await service.deleteAll(caller, kind, ownerID)
    }
}

/// `…/metadata[/{key}]` for users (API.md §2.2) and channels of both kinds (§3.10, §8.2). Keys
/// are taken in Unicode NFC, in the path as in bodies (`Checked`), so that one key is one row.
struct MetadataController<Service: MetadataService> {
    let service: Service
    /// The owner's path under `/v3`, e.g. `users/{user_id}`, and the name of its capture.
    let ownerPath: String
    let ownerParameter: String

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = ownerPath + "/metadata"
        routes.get(RouterPath(base), use: all)
        routes.post(RouterPath(base), use: create)
        routes.put(RouterPath(base), use: update)
        routes.delete(RouterPath(base), use: deleteAll)
        routes.get(RouterPath(base + "/{key}"), use: value)
        routes.put(RouterPath(base + "/{key}"), use: updateValue)
        routes.delete(RouterPath(base + "/{key}"), use: delete)
        return routes
    }

    @Sendable func all(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(try await service.all(context.caller, try context.pathParameter(ownerParameter)))
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetadataBody.self, context: context)
        let map = try Validation.metadata(body.metadata)
        try await service.create(context.caller, try context.pathParameter(ownerParameter), map)
        return try JSONResponse.make(map, status: .created)
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetadataUpdateBody.self, context: context)
        let map = try Validation.metadata(body.metadata)
        try await service.update(context.caller, try context.pathParameter(ownerParameter), map, upsert: body.upsert ?? true)
        return try JSONResponse.make(map)
    }

    @Sendable func deleteAll(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await service.deleteAll(context.caller, try context.pathParameter(ownerParameter))
        return JSONResponse.empty()
    }

    @Sendable func value(_ request: Request, _ context: CallerContext) async throws -> Response {
        let key = try context.pathParameter("key").nfc
        let value = try await service.value(context.caller, try context.pathParameter(ownerParameter), key: key)
        return try JSONResponse.make([key: value])
    }

    @Sendable func updateValue(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetadataValueBody.self, context: context)
        let key = try context.pathParameter("key").nfc
        let map = try Validation.metadata([key: body.value])
        try await service.update(context.caller, try context.pathParameter(ownerParameter), map, upsert: body.upsert ?? true)
        return try JSONResponse.make(map)
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await service.delete(context.caller, try context.pathParameter(ownerParameter), key: try context.pathParameter("key").nfc)
        return JSONResponse.empty()
    }
}

/// `POST …/metadata`: `{ "metadata": { key: value } }`.
struct MetadataBody: Decodable {
    @Checked var metadata: [String: String]
}

/// `PUT …/metadata`: the map, and whether keys not yet set are added (`upsert`, default true).
struct MetadataUpdateBody: Decodable {
    @Checked var metadata: [String: String]
    var upsert: Bool?
}

/// `PUT …/metadata/{key}`: `{ "value": "…", "upsert": true }`.
struct MetadataValueBody: Decodable {
    @Checked var value: String
    var upsert: Bool?
}
