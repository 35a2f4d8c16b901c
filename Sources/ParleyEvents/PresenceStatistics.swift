import Synchronization

/// Decides when PostgreSQL's statistics of `event_sockets` are refreshed (`ANALYZE`), from this
/// instance's socket count.
///
/// Every answer that reports presence (`is_online` of users, members and participants) looks
/// the user up in `event_sockets`, and each pooled connection keeps its statements' plans. A
/// plan made while the table was empty reads it whole (the cheapest way to read nothing), and
/// keeps doing so when a deploy or a rush reconnects thousands of clients seconds later, until
/// autovacuum analyzes the table a minute or more after: scripts/bench/events measured user
/// lookups' p99 at 4–5× while 10,000 sockets were open on a table analyzed empty. An ANALYZE
/// replaces the statistics, and with them every cached plan that reads the table.
final class PresenceStatistics: Sendable {
    private let state = Mutex(State())

    private struct State {
        /// The socket count when the last refresh began.
        var analyzedAt = 0
        var isRunning = false
    }

    /// A refresh is due when the count has doubled or halved since the last, by at least this
    /// many sockets: a growing table is analyzed a few times (each at twice the size), a steady
    /// one never.
    static let minimumChange = 100

    /// Whether `count` sockets call for a refresh now; if so the caller runs it and then calls
    /// `finished()`. One at a time.
    func refreshIsDue(count: Int) -> Bool {
        state.withLock { state in
            let (low, high) = (min(count, state.analyzedAt), max(count, state.analyzedAt))
            guard !state.isRunning, high - low >= Self.minimumChange, high >= 2 * low else { return false }
            state.isRunning = true
            state.analyzedAt = count
            return true
        }
    }

    func finished() {
        state.withLock { $0.isRunning = false }
    }
}
