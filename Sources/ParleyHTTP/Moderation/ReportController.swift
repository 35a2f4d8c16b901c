import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration

/// Reports and the review queue (API.md §7.4): `/v3/report/…`.
struct ReportController {
    let reports: ReportService
    let kinds: [ChannelKind]

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        for kind in kinds {
            let base = "report/\(kind.pathSegment)/{channel_url}"
            routes.post("\(base)/messages/{message_id}") { try await reportMessage(kind, $0, $1) }
            routes.post(RouterPath(base)) { try await reportChannel(kind, $0, $1) }
            routes.get("\(base)/messages/{message_id}") { request, context in
                var filter = ReportFilter()
                filter.channel = (kind, try Validation.channelURL(try context.pathParameter("channel_url")))
                filter.messageID = try context.messageID()
                return try await list(filter, request, context)
            }
            routes.get(RouterPath(base)) { request, context in
                var filter = ReportFilter()
                filter.channel = (kind, try Validation.channelURL(try context.pathParameter("channel_url")))
                filter.type = .channel
                return try await list(filter, request, context)
            }
        }
        routes.post("report/users/{offending_user_id}", use: reportUser)
        routes.get("report/users/{offending_user_id}") { request, context in
            var filter = ReportFilter()
            filter.offendingUserID = try Validation.userID(try context.pathParameter("offending_user_id"), field: "offending_user_id")
            filter.type = .user
            return try await list(filter, request, context)
        }
        routes.get("report") { request, context in try await list(ReportFilter(), request, context) }
        routes.put("report/{report_id}", use: review)
        return routes
    }

    func reportMessage(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: ReportBody.self, context: context)
        let (report, created) = try await reports.reportMessage(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(),
            offendingUserID: try body.offendingUserID.map { try Validation.userID($0, field: "offending_user_id") }, try body.filing())
        return JSONResponse.make(ReportDTO(report: report), status: created ? .created : .ok)
    }

    func reportChannel(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: ReportBody.self, context: context)
        let (report, created) = try await reports.reportChannel(
            context.caller, kind, try context.pathParameter("channel_url"), try body.filing())
        return JSONResponse.make(ReportDTO(report: report), status: created ? .created : .ok)
    }

    @Sendable func reportUser(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: ReportBody.self, context: context)
        let channel: (kind: ChannelKind, channelURL: String)?
        switch (body.channelType, body.channelURL) {
        case (nil, nil): channel = nil
        case (let type?, let url?):
            // Both spellings are in use: "group_channels" (Sendbird) and "group".
            guard let kind = kinds.first(where: { $0.rawValue == type || $0.pathSegment == type }) else {
                throw ParleyError.invalidValue("channel_type", "one of \(kinds.map(\.pathSegment).joined(separator: ", "))")
            }
            channel = (kind, url)
        case (nil, _?): throw ParleyError.missing("channel_type")
        case (_?, nil): throw ParleyError.missing("channel_url")
        }
        let (report, created) = try await reports.reportUser(
            context.caller, try Validation.userID(try context.pathParameter("offending_user_id"), field: "offending_user_id"), in: channel,
            try body.filing())
        return JSONResponse.make(ReportDTO(report: report), status: created ? .created : .ok)
    }

    func list(_ base: ReportFilter, _ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        var filter = base
        filter.status = try query.optionalChoice("status")
        if base.type == nil { filter.type = try query.optionalChoice("report_type") }
        filter.startTS = try query.int64("start_ts")
        filter.endTS = try query.int64("end_ts")
        let page = try await reports.list(context.caller, filter, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "report_logs", page: page, ReportDTO.init))
    }

    @Sendable func review(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: ReviewBody.self, context: context)
        guard let status = ReportStatus(rawValue: body.status) else {
            throw ParleyError.invalidValue("status", "one of \(ReportStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let report = try await reports.review(
            context.caller, try context.numberParameter("report_id"), status: status,
            resolution: try body.resolution.map { try Validation.text($0, field: "resolution", max: 1000) })
        return JSONResponse.make(ReportDTO(report: report))
    }
}

/// The body of every report request (each reads the fields it needs).
struct ReportBody: Decodable {
    @Checked var reportCategory: String
    @Checked var reportingUserID: String?
    @Checked var reportDescription: String?
    @Checked var offendingUserID: String?
    @Checked var channelType: String?
    @Checked var channelURL: String?

    enum CodingKeys: String, CodingKey {
        case reportCategory = "report_category"
        case reportingUserID = "reporting_user_id"
        case reportDescription = "report_description"
        case offendingUserID = "offending_user_id"
        case channelType = "channel_type"
        case channelURL = "channel_url"
    }

    func filing() throws -> ReportService.Filing {
        guard let category = ReportCategory(rawValue: reportCategory) else {
            throw ParleyError.invalidValue("report_category", "one of \(ReportCategory.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return ReportService.Filing(
            category: category, reportingUserID: try reportingUserID.map { try Validation.userID($0, field: "reporting_user_id") },
            description: try Validation.text(reportDescription ?? "", field: "report_description", max: 1000))
    }
}

/// `PUT /v3/report/{report_id}`.
struct ReviewBody: Decodable {
    @Checked var status: String
    @Checked var resolution: String?
}
