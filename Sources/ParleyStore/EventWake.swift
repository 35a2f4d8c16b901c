import Postgres
import Synchronization

/// The wake-ups of every instance's event reader after commits that wrote events, coalesced.
///
/// A commit asks for a wake-up and goes on: its answer does not wait for the notification. While
/// one NOTIFY is on its way, any number of further requests make exactly one more, sent after it
/// (so after their commits): under load, one notification and one read of the log serve many
/// commits, and an idle server still wakes its readers one round trip after a commit. A wake-up
/// lost with a dying process costs a reader its fallback poll, never an event.
final class EventWake: Sendable {
    private let pool: ConnectionPool
    private let state = Mutex(State())

    private struct State {
        var sending = false
        var requestedMeanwhile = false
    }

    init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// Wakes the readers once the commits that have happened so far are visible.
    func request() {
        let send = state.withLock { state in
            if state.sending {
                state.requestedMeanwhile = true
                return false
            }
            state.sending = true
            return true
        }
        if send { notify() }
    }

    private func notify() {
        pool.submit(EventRepository.wakeUp.query) { [self] _ in
            let again = state.withLock { state in
                state.sending = state.requestedMeanwhile
                state.requestedMeanwhile = false
                return state.sending
            }
            if again { notify() }
        }
    }
}
