import Hummingbird
import ParleyCompliance
import ParleyCore
import ParleyHTTPConventions

/// Announcements (API.md §14.4), Sendbird's paths: `/v3/announcements`, `/v3/announcement_group`,
/// the open rates and status, the daily, weekly and monthly statistics. The admin's only.
struct AnnouncementController {
    let announcements: AnnouncementService
    let limits: Limits

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("announcements", use: schedule)
        routes.get("announcements", use: list)
        routes.get("announcements/{unique_id}", use: view)
        routes.put("announcements/{unique_id}", use: update)
        routes.get("announcement_open_rate/{unique_id}", use: openRate)
        routes.get("announcement_open_status/{unique_id}", use: openStatus)
        routes.get("announcement_stats/daily", use: daily)
        routes.get("announcement_stats/weekly", use: weekly)
        routes.get("announcement_stats/monthly", use: monthly)
        routes.get("announcement_group", use: groups)
        routes.get("announcement_open_rate_by_group/{announcement_group}", use: groupOpenRate)
        return routes
    }

    @Sendable func schedule(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: AnnouncementBody.self, context: context)
        let announcement = try await announcements.schedule(context.caller, try body.announcement(limits: limits))
        return try JSONResponse.make(AnnouncementDTO(announcement))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let order = try query.choice("order", default: ListOrder.createdAt)
        let page = try await announcements.list(
            context.caller, status: try query.optionalChoice("status"), group: query.string("announcement_group"),
            byScheduledAt: order == .scheduledAt, limit: limit, pageToken: token)
        return try JSONResponse.make(AnnouncementListDTO(announcements: page.items.map(AnnouncementDTO.init), next: page.next))
    }

    enum ListOrder: String, CaseIterable {
        case createdAt = "created_at"
        case scheduledAt = "scheduled_at"
    }

    @Sendable func view(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(AnnouncementDTO(try await announcements.get(context.caller, try context.pathParameter("unique_id"))))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: AnnouncementBody.self, context: context)
        let change = try body.change(limits: limits)
        return try JSONResponse.make(
            AnnouncementDTO(try await announcements.update(context.caller, try context.pathParameter("unique_id"), change)))
    }

    @Sendable func openRate(_ request: Request, _ context: CallerContext) async throws -> Response {
        let uniqueID = try context.pathParameter("unique_id")
        let opens = try await announcements.opens(context.caller, uniqueID)
        return try JSONResponse.make(OpenRateDTO(uniqueID: uniqueID, group: nil, opens: opens))
    }

    @Sendable func groupOpenRate(_ request: Request, _ context: CallerContext) async throws -> Response {
        let group = try context.pathParameter("announcement_group")
        let opens = try await announcements.opens(context.caller, group: group)
        return try JSONResponse.make(OpenRateDTO(uniqueID: nil, group: group, opens: opens))
    }

    /// `limit`, `next` (Sendbird's name for the page token here), `unique_ids` (user ids),
    /// `channel_urls`, `has_opened`.
    @Sendable func openStatus(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let limit = try query.int("limit", default: 20, range: 1...100)
        let userIDs = query.all("unique_ids")
        let channelURLs = query.all("channel_urls")
        let hasOpened: Bool? = query.string("has_opened") == nil ? nil : try query.bool("has_opened", default: false)
        let page = try await announcements.recipients(
            context.caller, try context.pathParameter("unique_id"), userIDs: userIDs.isEmpty ? nil : userIDs,
            channelURLs: channelURLs.isEmpty ? nil : channelURLs, hasOpened: hasOpened, limit: limit,
            pageToken: query.string("next").flatMap { $0.isEmpty ? nil : $0 })
        return try JSONResponse.make(OpenStatusDTO(openStatus: page.items.map(OpenStatusDTO.Entry.init), next: page.next))
    }

    @Sendable func daily(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await statistics(request, context, .daily, startKey: "start_date", endKey: "end_date") { CivilDate($0) }
    }

    /// Weeks run Monday to Sunday; `start_week` and `end_week` are any day of the first and last week.
    @Sendable func weekly(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await statistics(request, context, .weekly, startKey: "start_week", endKey: "end_week") { CivilDate($0) }
    }

    @Sendable func monthly(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await statistics(request, context, .monthly, startKey: "start_month", endKey: "end_month") { text in
            CivilDate(text + "-01").map { $0.monthSpan.first }
        } end: { text in
            CivilDate(text + "-01").map { $0.monthSpan.last }
        }
    }

    private func statistics(
        _ request: Request, _ context: CallerContext, _ period: AnnouncementService.Period, startKey: String, endKey: String,
        start: (String) -> CivilDate?, end: ((String) -> CivilDate?)? = nil
    ) async throws -> Response {
        let query = QueryParameters(request)
        let format = period == .monthly ? "YYYY-MM" : "YYYY-MM-DD"
        guard let startText = query.string(startKey) else { throw ParleyError.missing(startKey) }
        guard let endText = query.string(endKey) else { throw ParleyError.missing(endKey) }
        guard let first = start(startText) else { throw ParleyError.invalidValue(startKey, "a date as \(format)") }
        guard let last = end.map({ $0(endText) }) ?? start(endText) else { throw ParleyError.invalidValue(endKey, "a date as \(format)") }
        let periods = try await announcements.statistics(
            context.caller, period, from: first, through: last, group: query.string("announcement_group"))
        return try JSONResponse.make(StatisticsDTO(statistics: periods.map(StatisticsDTO.Entry.init)))
    }

    @Sendable func groups(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await announcements.groups(context.caller, limit: limit, pageToken: token)
        return try JSONResponse.make(GroupsDTO(announcementGroups: page.items, next: page.next))
    }
}
