import Postgres
import Synchronization

extension GroupCommit {
    /// One queued call: its work, how it learns its fate, and how often it met a deadlock.
    final class Call: Sendable {
        let lockOrder: String
        let work: @Sendable (Repositories) throws -> Void
        /// The caller's traced request (`TraceParent`), read where the call was made.
        let traceParent = TraceParent.current
        let handoff = Handoff()
        let queuedAt = ContinuousClock.now
        private let attemptCount = Atomic<Int>(0)

        init(lockOrder: String, work: @escaping @Sendable (Repositories) throws -> Void) {
            self.lockOrder = lockOrder
            self.work = work
        }

        var attempts: Int {
            get { attemptCount.load(ordering: .relaxed) }
            set { attemptCount.store(newValue, ordering: .relaxed) }
        }
    }

    /// What became of a call in its batch.
    enum Outcome: Sendable {
        case committed(AfterCommit, wroteEvents: Bool)
        case failed(any Error)
        /// It met a deadlock or a serialization failure: rolled back, to be run again.
        case retry(any Error)
        /// Its batch never ran: back to the queue, not counted as an attempt.
        case requeued

        var wroteEvents: Bool {
            if case .committed(_, let wroteEvents) = self { return wroteEvents }
            return false
        }
    }

    static let savepoint = "shared_call"

    /// Runs `batch` in one transaction on `connection`, each call in its savepoint, in lock
    /// order; the outcomes come back in the batch's order. Throws when the transaction as a
    /// whole failed (the connection was lost, the commit refused): then nothing of it happened.
    static func execute(_ batch: [Call], on connection: PostgresConnection) throws -> [Outcome] {
        let order = batch.indices.sorted { (batch[$0].lockOrder, $0) < (batch[$1].lockOrder, $1) }
        return try connection.transactionWithFinalStatement { connection in
            var outcomes = [Outcome?](repeating: nil, count: batch.count)
            let events = PendingEvents()
            for index in order {
                connection.savepoint(savepoint)
                let afterCommit = AfterCommit()
                let repositories = Repositories(connection: connection, afterCommit: afterCommit, traceParent: batch[index].traceParent)
                do {
                    try batch[index].work(repositories)
                    let written = repositories.takeEvents()
                    for pending in written { events.add(pending.event, traceParent: pending.traceParent) }
                    connection.releaseSavepoint(savepoint)
                    outcomes[index] = .committed(afterCommit, wroteEvents: !written.isEmpty)
                } catch let error as PostgresError where error.kind == .connection || error.kind == .busy {
                    throw error
                } catch {
                    connection.rollBackToSavepoint(savepoint)
                    let transient = (error as? PostgresError)?.isTransient ?? false
                    outcomes[index] = transient ? .retry(error) : .failed(error)
                }
            }
            let flush = try EventRepository(connection: connection, pending: events).flushStatement()
            return (outcomes.map { $0 ?? .failed(PostgresError(kind: .usage, message: "a call of a batch did not run")) }, last: flush)
        }
    }
}

/// How a waiting call learns that it leads a batch (possibly more than once) and, finally, its
/// fate. A lead is never lost to a fate that arrives first, or the runner slot it carries would be.
final class Handoff: Sendable {
    enum Signal: Sendable {
        case lead
        case committed(AfterCommit)
        case failed(any Error)
    }

    private struct State {
        var leads = 0
        var fate: Signal?
        var waiter: CheckedContinuation<Signal, Never>?
    }

    private let state = Mutex(State())

    /// The next signal: a pending lead first, then the fate.
    func next() async -> Signal {
        await withCheckedContinuation { continuation in
            let ready: Signal? = state.withLock { state in
                if state.leads > 0 {
                    state.leads -= 1
                    return .lead
                }
                if let fate = state.fate { return fate }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func lead() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter.take() else {
                state.leads += 1
                return nil as CheckedContinuation<Signal, Never>?
            }
            return waiter
        }
        waiter?.resume(returning: .lead)
    }

    func finish(_ fate: Signal) {
        let waiter = state.withLock { state in
            state.fate = fate
            return state.waiter.take()
        }
        waiter?.resume(returning: fate)
    }
}
