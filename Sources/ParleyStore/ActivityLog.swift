import Synchronization

/// The users active on each day (API.md §14.5: a user who connected or sent), gathered in memory
/// and written by `StatisticsRepository.recordActive` every few seconds and at shutdown: counting
/// must not cost a send a statement. A crash loses at most the last interval's new names, which
/// the users' next requests record again. Each user is written once a day per instance.
public final class ActivityLog: Sendable {
    private struct State {
        var day: Int64 = 0
        /// Days since 1970 (UTC) → users seen and not yet written.
        var pending: [Int64: Set<String>] = [:]
        /// Users of `day` already written (or pending): seen again, they cost a set lookup.
        var known: Set<String> = []
    }

    private let state = Mutex(State())

    public init() {}

    public func record(_ userID: String, now: Int64) {
        let day = now / 86_400_000
        state.withLock { state in
            if day != state.day { (state.day, state.known) = (day, []) }
            if state.known.insert(userID).inserted { state.pending[day, default: []].insert(userID) }
        }
    }

    /// What is waiting to be written, taken out.
    public func take() -> [Int64: Set<String>] {
        state.withLock { state in
            defer { state.pending = [:] }
            return state.pending
        }
    }

    /// Puts back what could not be written (the database was away), for the next attempt.
    public func putBack(_ pending: [Int64: Set<String>]) {
        state.withLock { state in
            for (day, users) in pending { state.pending[day, default: []].formUnion(users) }
        }
    }
}
