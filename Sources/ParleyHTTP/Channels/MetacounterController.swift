import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions

/// `…/metacounter[/{key}]` of one channel kind (API.md §13.6): integer values by key, written with
/// `mode` `set` (default), `increase` or `decrease`. Keys are taken in Unicode NFC, as metadata's.
struct MetacounterController {
    let service: ChannelMetacounterService
    let kind: ChannelKind

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = "\(kind.pathSegment)/{channel_url}/metacounter"
        routes.get(RouterPath(base), use: values)
        routes.post(RouterPath(base), use: create)
        routes.put(RouterPath(base), use: update)
        routes.delete(RouterPath(base), use: deleteAll)
        routes.get(RouterPath(base + "/{key}"), use: value)
        routes.put(RouterPath(base + "/{key}"), use: updateValue)
        routes.delete(RouterPath(base + "/{key}"), use: delete)
        return routes
    }

    /// All values, or those of `key` or `keys` (comma-separated) when given.
    @Sendable func values(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        var keys: [String]? = query.list("keys")
        if let key = query.string("key") { keys = (keys ?? []) + [key] }
        let wanted = try keys.map { try $0.map(Self.key) }
        let values = try await service.values(context.caller, kind, try context.pathParameter("channel_url"), keys: wanted)
        return JSONResponse.make(Self.json(values))
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetacounterBody.self, context: context)
        let values = try Self.checked(body.metacounter.values)
        let created = try await service.create(context.caller, kind, try context.pathParameter("channel_url"), values)
        return JSONResponse.make(Self.json(created), status: .created)
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetacounterUpdateBody.self, context: context)
        let changes = try Self.checked(body.metacounter.values)
        let values = try await service.update(
            context.caller, kind, try context.pathParameter("channel_url"), changes, mode: try Self.mode(body.mode),
            upsert: body.upsert ?? true)
        return JSONResponse.make(Self.json(values))
    }

    @Sendable func deleteAll(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await service.deleteAll(context.caller, kind, try context.pathParameter("channel_url"))
        return JSONResponse.empty()
    }

    @Sendable func value(_ request: Request, _ context: CallerContext) async throws -> Response {
        let key = try Self.key(try context.pathParameter("key").nfc)
        let value = try await service.value(context.caller, kind, try context.pathParameter("channel_url"), key: key)
        return JSONResponse.make(Self.json([key: value]))
    }

    @Sendable func updateValue(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetacounterValueBody.self, context: context)
        let key = try Self.key(try context.pathParameter("key").nfc)
        let values = try await service.update(
            context.caller, kind, try context.pathParameter("channel_url"), [key: body.value], mode: try Self.mode(body.mode),
            upsert: body.upsert ?? true)
        return JSONResponse.make(Self.json(values))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        let key = try Self.key(try context.pathParameter("key").nfc)
        try await service.delete(context.caller, kind, try context.pathParameter("channel_url"), key: key)
        return JSONResponse.empty()
    }

    /// A key as metadata's: 1–128 characters (400111, 400110).
    private static func key(_ key: String) throws -> String {
        try Validation.metadataKey(key)
        return key
    }

    /// The keys of a request's map, and at most as many as a channel may hold (400203).
    private static func checked(_ values: [String: Int64]) throws -> [String: Int64] {
        guard values.count <= Validation.maxMetadataKeys else {
            throw ParleyError.tooMany("\"metacounter\" may hold at most \(Validation.maxMetadataKeys) keys.")
        }
        for key in values.keys { try Validation.metadataKey(key, field: "metacounter") }
        return values
    }

    /// `mode`: `set` when absent (400111 for anything else than the three).
    private static func mode(_ text: String?) throws -> MetacounterMode {
        guard let text else { return .set }
        guard let mode = MetacounterMode(rawValue: text) else {
            throw ParleyError.invalidValue("mode", "must be one of \(MetacounterMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
    }

    private static func json(_ values: [String: Int64]) -> CounterJSON {
        CounterJSON(values: values)
    }
}

/// A metacounter as a JSON object of whole numbers, keys in order.
struct CounterJSON: JSONWritable {
    let values: [String: Int64]

    func write(to json: inout JSONWriter) {
        json.object { json in
            for key in values.keys.sorted() { json.member(key, values[key]!) }
        }
    }
}

/// `POST …/metacounter`: `{ "metacounter": { key: number } }`.
struct MetacounterBody: Decodable {
    @Checked var metacounter: CounterMap
}

/// `PUT …/metacounter`: the changes, `mode` (`set` | `increase` | `decrease`, default `set`) and
/// whether keys not yet set are added (`upsert`, default true).
struct MetacounterUpdateBody: Decodable {
    @Checked var metacounter: CounterMap
    @Checked var mode: String?
    var upsert: Bool?
}

/// `PUT …/metacounter/{key}`: `{ "value": number, "mode": …, "upsert": … }`.
struct MetacounterValueBody: Decodable {
    @Checked var value: Int64
    @Checked var mode: String?
    var upsert: Bool?
}
