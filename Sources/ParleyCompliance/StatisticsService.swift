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
        return try await store.read { try $0.statistics.connections() }
    }

    /// Users active on `date` (today when nil).
    public func dailyActiveUsers(_ caller: Caller, on date: CivilDate?) async throws -> Int {
        try caller.requireAdmin()
        let day = (date ?? today).epochDay
        return try await store.read { try $0.statistics.activeUsers(from: day, through: day) }
    }

    /// Users active in the month of `date` (this month when nil).
    public func monthlyActiveUsers(_ caller: Caller, in date: CivilDate?) async throws -> Int {
        try caller.requireAdmin()
        let span = (date ?? today).monthSpan
        return try await store.read { try $0.statistics.activeUsers(from: span.first.epochDay, through: span.last.epochDay) }
    }

    public enum TimeDimension: String, Sendable, CaseIterable {
        case daily, monthly
    }

    /// The most sockets open at once on each day (or month) from `first` through `last` (0 where
    /// none was recorded); at most 366 days or 120 months.
    public func peakConnections(_ caller: Caller, _ dimension: TimeDimension, from first: CivilDate, through last: CivilDate)
        async throws -> [(date: String, peak: Int)]
    {
        try caller.requireAdmin()
        guard first <= last else { throw ParleyError.invalidValue("end_year", "the end is before the start") }
        let days = last.epochDay - first.epochDay + 1
        guard days <= (dimension == .daily ? 366 : 3_660) else {
            throw ParleyError.invalidValue("end_year", dimension == .daily ? "at most 366 days" : "at most 120 months")
        }
        let peaks = try await store.read { try $0.statistics.peaks(from: first.epochDay, through: last.epochDay) }
        var series: [(date: String, peak: Int)] = []
        for day in first.epochDay...last.epochDay {
            let date = CivilDate(epochDay: day)
            let label = dimension == .daily ? date.text : date.monthText
            let peak = peaks[day] ?? 0
            if let lastEntry = series.last, lastEntry.date == label {
                series[series.count - 1].peak = max(lastEntry.peak, peak)
            } else {
                series.append((label, peak))
            }
        }
        return series
    }

    private var today: CivilDate { CivilDate(epochDay: clock.nowMillis / 86_400_000) }
}
