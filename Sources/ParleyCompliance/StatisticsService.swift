import ParleyCore
import ParleyStore

/// The application's statistics (API.md §14.5, Sendbird's `/v3/applications/ccu|dau|mau|peak_connections`),
/// for the admin, from records every instance keeps in PostgreSQL: right across instances and
/// after restarts. Days are UTC.
public struct StatisticsService: Sendable {
    let store: Store
    let clock: Clock

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// Sockets open now on every instance (devices and browser tabs, as Sendbird counts them).
    public func concurrentConnections(_ caller: Caller) async throws -> Int {
        try caller.requireAdmin()
        return try await store.replicaRead { try $0.statistics.connections() }
    }

    /// Users active on `date` (today when nil).
    public func dailyActiveUsers(_ caller: Caller, on date: CivilDate?) async throws -> Int {
        try caller.requireAdmin()
        let day = (date ?? today).epochDay
        return try await store.replicaRead { try $0.statistics.activeUsers(from: day, through: day) }
    }

    /// Users active in the month of `date` (this month when nil).
    public func monthlyActiveUsers(_ caller: Caller, in date: CivilDate?) async throws -> Int {
        try caller.requireAdmin()
        let span = (date ?? today).monthSpan
        return try await store.replicaRead { try $0.statistics.activeUsers(from: span.first.epochDay, through: span.last.epochDay) }
    }

    public enum TimeDimension: String, Sendable, CaseIterable {
        case daily, monthly
    }

    /// The most sockets open at once on each day (or month) from `first` through `last` (0 where
    /// none was recorded); at most 366 days or 120 months.
    public func peakConnections(_ caller: Caller, _ dimension: TimeDimension, from first: CivilDate, through last: CivilDate)
        async throws -> [(date: String, value: Int)]
    {
        try caller.requireAdmin()
        try Self.checkSpan(dimension, first, last)
        let peaks = try await store.replicaRead { try $0.statistics.peaks(from: first.epochDay, through: last.epochDay) }
        // A month's peak is the highest of its days'.
        return Self.series(dimension, first, last) { days in days.map { peaks[$0] ?? 0 }.max() ?? 0 }
    }

    /// Sendbird's advanced analytics (`GET /v3/statistics/metric`): per day or month, the
    /// messages sent, the users who sent them, the channels created, or the active users.
    public func metric(_ caller: Caller, _ metric: Metric, _ dimension: TimeDimension, from first: CivilDate, through last: CivilDate)
        async throws -> [(date: String, value: Int)]
    {
        try caller.requireAdmin()
        try Self.checkSpan(dimension, first, last)
        let counts = try await store.replicaRead { repositories in
            try repositories.statistics.metric(
                metric.rawValue, monthly: dimension == .monthly, from: first.epochDay, through: last.epochDay)
        }
        // Counted per bucket in SQL (distinct users are not a sum of days): a month's is keyed by its first day.
        return Self.series(dimension, first, last) { days in
            counts[dimension == .daily ? days[0] : CivilDate(epochDay: days[0]).monthSpan.first.epochDay] ?? 0
        }
    }

    public enum Metric: String, Sendable, CaseIterable {
        case messages
        case messageSenders = "message_senders"
        case createdChannels = "created_channels"
        case activeUsers = "active_users"
    }

    private static func checkSpan(_ dimension: TimeDimension, _ first: CivilDate, _ last: CivilDate) throws {
        guard first <= last else { throw ParleyError.invalidValue("end_year", "the end is before the start") }
        guard last.epochDay - first.epochDay + 1 <= (dimension == .daily ? 366 : 3_660) else {
            throw ParleyError.invalidValue("end_year", dimension == .daily ? "at most 366 days" : "at most 120 months")
        }
    }

    /// One entry per day (or month) of the span, oldest first, valued by `value` of its days.
    private static func series(_ dimension: TimeDimension, _ first: CivilDate, _ last: CivilDate, _ value: ([Int64]) -> Int)
        -> [(date: String, value: Int)]
    {
        CivilDate.periods(from: first, through: last) { dimension == .daily ? $0.text : $0.monthText }.map {
            ($0.label, value(Array($0.days)))
        }
    }

    private var today: CivilDate { CivilDate(epochDay: clock.nowMillis / 86_400_000) }
}
