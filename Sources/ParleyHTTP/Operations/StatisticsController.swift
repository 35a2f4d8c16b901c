import Hummingbird
import ParleyCompliance
import ParleyCore
import ParleyHTTPConventions

/// The application's statistics (API.md §14.5), for the admin: Sendbird's
/// `/v3/applications/ccu`, `dau`, `mau` and `peak_connections`.
struct StatisticsController {
    let statistics: StatisticsService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("applications/ccu", use: ccu)
        routes.get("applications/dau", use: dau)
        routes.get("applications/mau", use: mau)
        routes.get("applications/peak_connections", use: peaks)
        routes.get("statistics/metric", use: metric)
        return routes
    }

    @Sendable func ccu(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(["ccu": try await statistics.concurrentConnections(context.caller)])
    }

    @Sendable func dau(_ request: Request, _ context: CallerContext) async throws -> Response {
        let date = try Self.date(QueryParameters(request))
        return try JSONResponse.make(["dau": try await statistics.dailyActiveUsers(context.caller, on: date)])
    }

    @Sendable func mau(_ request: Request, _ context: CallerContext) async throws -> Response {
        let date = try Self.date(QueryParameters(request))
        return try JSONResponse.make(["mau": try await statistics.monthlyActiveUsers(context.caller, in: date)])
    }

    /// `time_dimension` (`daily` | `monthly`), `start_year`, `start_month`, `end_year`,
    /// `end_month` (required), `start_day` and `end_day` (the month's first and last by default).
    @Sendable func peaks(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let (dimension, first, last) = try Self.span(QueryParameters(request))
        let series = try await statistics.peakConnections(context.caller, dimension, from: first, through: last)
        return try JSONResponse.make(PeakConnections(peakConnections: series.map { .init(date: $0.date, peakConnections: $0.value) }))
    }

    /// Sendbird's advanced analytics: `metric_type` (`messages`, `message_senders`,
    /// `created_channels`, `active_users`) over the span of `peaks`; `{ "record": [{ date, value }] }`.
    @Sendable func metric(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let query = QueryParameters(request)
        guard query.string("metric_type") != nil else { throw ParleyError.missing("metric_type") }
        let metric: StatisticsService.Metric = try query.choice("metric_type", default: .messages)
        let (dimension, first, last) = try Self.span(query)
        let series = try await statistics.metric(context.caller, metric, dimension, from: first, through: last)
        return try JSONResponse.make(MetricRecords(record: series.map { .init(date: $0.date, value: $0.value) }))
    }

    /// `time_dimension` (`daily` | `monthly`), `start_year`, `start_month`, `end_year`,
    /// `end_month` (required), `start_day` and `end_day` (the month's first and last by default).
    static func span(_ query: QueryParameters) throws -> (StatisticsService.TimeDimension, CivilDate, CivilDate) {
        guard query.string("time_dimension") != nil else { throw ParleyError.missing("time_dimension") }
        let dimension: StatisticsService.TimeDimension = try query.choice("time_dimension", default: .daily)
        return (dimension, try day(query, "start", last: false), try day(query, "end", last: true))
    }

    /// `date` as `YYYY-MM-DD` (400111 otherwise), or nil.
    static func date(_ query: QueryParameters) throws -> CivilDate? {
        try query.string("date").map { text in
            guard let date = CivilDate(text) else { throw ParleyError.invalidValue("date", "a date as YYYY-MM-DD") }
            return date
        }
    }

    /// `<side>_year`, `<side>_month` and `<side>_day` (defaulting to the month's first or last day).
    static func day(_ query: QueryParameters, _ side: String, last: Bool) throws -> CivilDate {
        guard query.string("\(side)_year") != nil else { throw ParleyError.missing("\(side)_year") }
        guard query.string("\(side)_month") != nil else { throw ParleyError.missing("\(side)_month") }
        let year = try query.int("\(side)_year", default: 0, range: 1...9999)
        let month = try query.int("\(side)_month", default: 0, range: 1...12)
        let lastDay = CivilDate.days(inMonth: month, of: year)
        let day = try query.int("\(side)_day", default: last ? lastDay : 1, range: 1...lastDay)
        return CivilDate(year: year, month: month, day: day)!
    }
}

/// `{ "peak_connections": [{ "date": "2026-11-26", "peak_connections": 12 }] }`.
struct PeakConnections: Encodable {
    struct Entry: Encodable {
        let date: String
        let peakConnections: Int

        enum CodingKeys: String, CodingKey {
            case date
            case peakConnections = "peak_connections"
        }
    }

    let peakConnections: [Entry]

    enum CodingKeys: String, CodingKey {
        case peakConnections = "peak_connections"
    }
}

/// `{ "record": [{ "date": "2026-11-26", "value": 12 }] }`.
struct MetricRecords: Encodable {
    struct Entry: Encodable {
        let date: String
        let value: Int
    }

    let record: [Entry]
}
