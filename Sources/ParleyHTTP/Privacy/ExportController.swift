import ByteCoding
import Hummingbird
import ParleyCompliance
import ParleyCore
import ParleyHTTPConventions

/// Data exports (API.md §14.2), for the admin: Sendbird's `/v3/export/{data_type}`.
struct ExportController {
    let exports: ExportService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("export/{data_type}", use: register)
        routes.get("export/{data_type}", use: list)
        routes.get("export/{data_type}/{request_id}", use: find)
        return routes
    }

    /// The file download, outside the authentication middleware: its link is the credential.
    var downloadRoutes: RouteCollection<ParleyRequestContext> {
        let routes = RouteCollection(context: ParleyRequestContext.self)
        routes.get("export/{data_type}/{request_id}/file", use: file)
        return routes
    }

    @Sendable func register(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let kind = try Self.kind(context)
        let body = try await request.decode(as: ExportBody.self, context: context)
        return JSONResponse.make(ExportDTO(view: try await exports.register(context.caller, try body.request(kind))))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await exports.list(context.caller, try Self.kind(context), limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "exported_data", page: page, ExportDTO.init))
    }

    @Sendable func find(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(
            ExportDTO(view: try await exports.find(context.caller, try Self.kind(context), try context.pathParameter("request_id"))))
    }

    @Sendable func file(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let link = try SignedLinkQuery(request)
        guard let kind = ExportKind(rawValue: try context.pathParameter("data_type")) else { throw ParleyError.notFound("No such export.") }
        let download = try await exports.file(
            kind, try context.pathParameter("request_id"), expiresAt: link.expiresAt, signature: link.signature)
        return try await FileResponse(file: download, request: request).make()
    }

    static func kind(_ context: some RequestContext) throws -> ExportKind {
        guard let kind = ExportKind(rawValue: try context.pathParameter("data_type")) else {
            throw ParleyError.invalidValue("data_type", "one of messages, channels, users")
        }
        return kind
    }
}

/// `POST /v3/export/{data_type}`: Sendbird's `registerAndScheduleDataExportData`.
struct ExportBody: Decodable {
    @Checked var startTS: Int64?
    @Checked var endTS: Int64?
    @Checked var format: String?
    @Checked var csvDelimiter: String?
    @Checked var channelURLs: [String]?
    @Checked var excludeChannelURLs: [String]?
    @Checked var senderIDs: [String]?
    @Checked var excludeSenderIDs: [String]?
    @Checked var userIDs: [String]?

    enum CodingKeys: String, CodingKey {
        case format
        case startTS = "start_ts"
        case endTS = "end_ts"
        case csvDelimiter = "csv_delimiter"
        case channelURLs = "channel_urls"
        case excludeChannelURLs = "exclude_channel_urls"
        case senderIDs = "sender_ids"
        case excludeSenderIDs = "exclude_sender_ids"
        case userIDs = "user_ids"
    }

    func request(_ kind: ExportKind) throws -> ExportRequest {
        guard let startTS else { throw ParleyError.missing("start_ts") }
        guard let endTS else { throw ParleyError.missing("end_ts") }
        guard let format = ExportRequest.Format(rawValue: format ?? "json") else { throw ParleyError.invalidValue("format", "json or csv") }
        return try ExportRequest(
            kind: kind, startTS: startTS, endTS: endTS, format: format, csvDelimiter: csvDelimiter ?? ",", channelURLs: channelURLs ?? [],
            excludeChannelURLs: excludeChannelURLs ?? [], senderIDs: senderIDs ?? [], excludeSenderIDs: excludeSenderIDs ?? [],
            userIDs: userIDs ?? [])
    }
}

/// An export in Sendbird's shape (`request_id`, `status`, `data_type`, `format`, `csv_delimiter`,
/// `timezone`, `created_at`, `start_ts`, `end_ts`, the filters, `file`), with `records` once done.
struct ExportDTO: JSONWritable {
    let view: ExportService.View

    func write(to json: inout JSONWriter) {
        let (job, request) = (view.job, view.request)
        json.object { json in
            json.field("request_id", job.jobID)
            json.field("status", job.status.rawValue)
            json.field("data_type", request.kind.rawValue)
            json.field("format", request.format.rawValue)
            json.field("csv_delimiter", request.csvDelimiter)
            json.field("timezone", "UTC")
            json.field("created_at", job.createdAt)
            json.field("start_ts", request.startTS)
            json.field("end_ts", request.endTS)
            for (name, list) in [
                ("channel_urls", request.channelURLs), ("exclude_channel_urls", request.excludeChannelURLs),
                ("sender_ids", request.senderIDs),
                ("exclude_sender_ids", request.excludeSenderIDs), ("user_ids", request.userIDs)
            ] {
                json.key(name)
                json.array { json in list.forEach { json.string($0) } }
            }
            if let file = view.file {
                json.key("file")
                json.object { json in
                    json.field("url", file.url)
                    json.field("expires_at", file.expiresAt)
                }
                json.field("records", Int64(file.records))
            }
        }
    }
}
