import ByteCoding
import Hummingbird
import ParleyCompliance
import ParleyCore
import ParleyHTTPConventions

/// GDPR requests (API.md §14.1), for the admin: `/v3/privacy/gdpr`, Sendbird's paths and fields.
struct GDPRController {
    let gdpr: GDPRService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("privacy/gdpr", use: register)
        routes.get("privacy/gdpr", use: list)
        routes.get("privacy/gdpr/{request_id}", use: find)
        routes.delete("privacy/gdpr/{request_id}", use: cancel)
        return routes
    }

    /// The archive download, outside the authentication middleware: its link is the credential.
    var downloadRoutes: RouteCollection<ParleyRequestContext> {
        let routes = RouteCollection(context: ParleyRequestContext.self)
        routes.get("privacy/gdpr/{request_id}/archive", use: archive)
        return routes
    }

    @Sendable func archive(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let link = try SignedLinkQuery(request)
        let file = try await gdpr.archive(try context.pathParameter("request_id"), expiresAt: link.expiresAt, signature: link.signature)
        return try await FileResponse(file: file, request: request).make()
    }

    @Sendable func register(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: GDPRRequestBody.self, context: context)
        return JSONResponse.make(GDPRRequestDTO(view: try await gdpr.register(context.caller, try body.request())))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await gdpr.list(context.caller, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "requests", page: page, GDPRRequestDTO.init))
    }

    @Sendable func find(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(GDPRRequestDTO(view: try await gdpr.find(context.caller, try context.pathParameter("request_id"))))
    }

    @Sendable func cancel(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await gdpr.cancel(context.caller, try context.pathParameter("request_id"))
        return JSONResponse.empty()
    }
}

/// `POST /v3/privacy/gdpr`: `action` (`delete` by default, as Sendbird's), `user_ids` for a
/// deletion (`user_id` also taken), `user_id` for an access request, `channel_delete_option`.
struct GDPRRequestBody: Decodable {
    @Checked var action: String?
    @Checked var userID: String?
    @Checked var userIDs: [String]?
    @Checked var channelDeleteOption: String?

    enum CodingKeys: String, CodingKey {
        case action
        case userID = "user_id"
        case userIDs = "user_ids"
        case channelDeleteOption = "channel_delete_option"
    }

    func request() throws -> GDPRRequest {
        guard let action = GDPRRequest.Action(rawValue: action ?? "delete") else {
            throw ParleyError.invalidValue("action", "one of access, delete")
        }
        let option = try channelDeleteOption.map { value in
            guard let option = GDPRRequest.ChannelDeleteOption(rawValue: value) else {
                throw ParleyError.invalidValue("channel_delete_option", "one of do_not_delete, 1_on_1, all")
            }
            guard action == .delete else { throw ParleyError.invalidValue("channel_delete_option", "only a deletion deletes channels") }
            return option
        }
        let ids = action == .access ? (userID.map { [$0] } ?? []) : ((userIDs ?? []) + (userID.map { [$0] } ?? [])).orderedUnique()
        return try GDPRRequest(
            action: action, userIDs: try ids.map { try Validation.userID($0, field: action == .access ? "user_id" : "user_ids") },
            channelDeleteOption: option ?? .doNotDelete)
    }
}

/// A GDPR request in Sendbird's shape (`request_id`, `action`, `status`, `user_id`, `user_ids`,
/// `channel_delete_option`, `created_at`, `files`), with what Parley adds: `finished_at` and, for a
/// finished deletion, `removed` (how many of each kind of thing went).
struct GDPRRequestDTO: JSONWritable {
    let view: GDPRRequestView

    func write(to json: inout JSONWriter) {
        let (job, request) = (view.job, view.request)
        json.object { json in
            json.field("request_id", job.jobID)
            json.field("action", request.action.rawValue)
            json.field("status", job.status.rawValue)
            json.field("user_id", request.userIDs.first ?? "")
            json.key("user_ids")
            json.array { json in request.userIDs.forEach { json.string($0) } }
            json.field("channel_delete_option", request.channelDeleteOption.rawValue)
            json.field("created_at", job.createdAt)
            json.key("finished_at")
            if let at = job.finishedAt { json.int(at) } else { json.null() }
            if let removed = view.removed {
                json.key("removed")
                json.object { json in
                    for (what, count) in removed.sorted(by: { $0.key < $1.key }) {
                        json.key(what)
                        json.int(Int64(count))
                    }
                }
            }
            if let archive = view.archive {
                json.key("files")
                json.object { json in
                    json.field("url", archive.url)
                    json.field("expires_at", archive.expiresAt)
                }
            }
        }
    }
}
