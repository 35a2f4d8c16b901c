import DequeModule
import Foundation
import Metrics
import Postgres
import Synchronization

/// Group commit: concurrent calls share one transaction and one commit, each in a savepoint of
/// its own (`Store.sharedTransaction`, used by sends).
///
/// A call queues its work and waits. A free runner slot makes the caller a leader: it leases a
/// connection, takes up to `maxBatch` queued calls, runs each in a savepoint (a call that fails
/// rolls back to it and fails alone; one that meets a deadlock is queued again), writes all their
/// events in one statement that carries the COMMIT, and answers every call of the batch only
/// then. It hands the slot to the oldest call still queued, which leads the next batch. Under
/// load, PostgreSQL then does one transaction's fixed work (snapshot, commit record, disk flush,
/// event locks) per batch rather than per call; measured with pgbench on 2 cores, 8 sends per
/// transaction from 4 clients ran 1.8x the sends/s of one send per transaction from 32.
///
/// Calls are ordered by their `lockOrder` key (a channel URL) inside a batch, stable otherwise:
/// two batches then take their channels' row locks in the same order and never wait for each
/// other in a circle, and calls on one channel keep their order.
final class GroupCommit: Sendable {
    /// The most calls in one transaction: each savepoint that writes is a subtransaction, and
    /// past 64 of them PostgreSQL's snapshots of every session get slow ("suboverflowed").
    static let maxBatch = 16
    /// Batches in flight at once: one per core and one more, so that PostgreSQL's cores all work
    /// while a batch waits for this side (one batch is one backend), and few enough that batches
    /// grow under load. Measured on 2 cores, 32 connections: 2 runners made batches of 9 sends,
    /// 3 of 5.5, 4 of 4, at sends/s within the noise of each other (720-1,040/s).
    static let maxRunners = ProcessInfo.processInfo.activeProcessorCount + 1
    /// Runs of a call that keeps meeting deadlocks, before it fails.
    static let maxAttempts = 5

    private let pool: ConnectionPool
    private let eventWake: EventWake
    private let state = Mutex(State())
    /// Calls per shared transaction, on `/metrics`.
    private static let batchSize = Recorder(label: "parley_shared_transaction_calls")

    private struct State {
        var queue: Deque<Call> = []
        var runners = 0
    }

    init(pool: ConnectionPool, eventWake: EventWake) {
        self.pool = pool
        self.eventWake = eventWake
        // The dashboard's panel reads it from the start (the server's one store is built after
        // the metrics backend).
        _ = Self.batchSize
    }

    /// Runs `body` in a transaction shared with concurrent calls; returns once it committed,
    /// with what must follow the commit.
    func run<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (Repositories) throws -> T) async throws -> (T, AfterCommit) {
        let value = Mutex<T?>(nil)
        let call = Call(lockOrder: lockOrder) { repositories in
            let result = try body(repositories)
            value.withLock { $0 = result }
        }
        let limits = pool.waitLimits
        let admitted: Bool? = state.withLock { state in
            // As many may wait here as for a connection; more are refused at once (503).
            guard state.queue.count < limits.maxWaiting else { return nil }
            state.queue.append(call)
            guard state.runners < Self.maxRunners else { return false }
            state.runners += 1
            return true
        }
        guard let leads = admitted else {
            throw PostgresError(kind: .busy, message: "\(limits.maxWaiting) shared transactions are already waiting")
        }
        if leads { await lead(for: call) }
        while true {
            switch await call.handoff.next() {
            case .lead: await lead(for: call)
            case .failed(let error): throw error
            case .committed(let afterCommit):
                guard let result = value.withLock({ $0 }) else {
                    throw PostgresError(kind: .usage, message: "a call committed without a value")
                }
                return (result, afterCommit)
            }
        }
    }

    /// Runs one batch in this caller's runner slot, then passes the slot on.
    private func lead(for caller: Call) async {
        guard let batch = nextBatch() else { return }
        Self.batchSize.record(batch.count)
        var outcomes: [Outcome]
        do {
            outcomes = try await pool.withConnection { connection in try Self.execute(batch, on: connection) }
        } catch let error as PostgresError where error.isTransient {
            outcomes = batch.map { _ in .retry(error) }
        } catch is CancellationError {
            // This caller's task was cancelled while waiting for a connection: its own call
            // fails (and leaves the queue, so that no slot comes back to it), the others' go back
            // to the queue for the next leader.
            outcomes = batch.map { $0 === caller ? .failed(CancellationError()) : .requeued }
            let queued = state.withLock { state in
                guard let index = state.queue.firstIndex(where: { $0 === caller }) else { return false }
                state.queue.remove(at: index)
                return true
            }
            if queued { caller.handoff.finish(.failed(CancellationError())) }
        } catch {
            outcomes = batch.map { _ in .failed(error) }
        }
        if outcomes.contains(where: \.wroteEvents) { eventWake.request() }
        var retries: [Call] = []
        for (call, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .committed(let afterCommit, _): call.handoff.finish(.committed(afterCommit))
            case .failed(let error): call.handoff.finish(.failed(error))
            case .retry(let error):
                call.attempts += 1
                if call.attempts < Self.maxAttempts { retries.append(call) } else { call.handoff.finish(.failed(error)) }
            case .requeued: retries.append(call)
            }
        }
        let next = state.withLock { state in
            state.queue.prepend(contentsOf: retries)
            guard let head = state.queue.first else {
                state.runners -= 1
                return nil as Call?
            }
            return head
        }
        next?.handoff.lead()
    }

    /// The next calls to run, or nil (and one runner fewer) when none wait. Calls that waited
    /// longer than a job may wait for a connection fail instead (503), as they would there.
    private func nextBatch() -> [Call]? {
        let oldest = ContinuousClock.now - pool.waitLimits.timeout
        let (batch, expired) = state.withLock { state -> ([Call]?, [Call]) in
            var expired: [Call] = []
            while let first = state.queue.first, first.queuedAt < oldest { expired.append(state.queue.removeFirst()) }
            guard !state.queue.isEmpty else {
                state.runners -= 1
                return (nil, expired)
            }
            let count = min(Self.maxBatch, state.queue.count)
            defer { state.queue.removeFirst(count) }
            return (Array(state.queue.prefix(count)), expired)
        }
        if !expired.isEmpty {
            let busy = PostgresError(kind: .busy, message: "a shared transaction waited longer than \(pool.waitLimits.timeout)")
            expired.forEach { $0.handoff.finish(.failed(busy)) }
        }
        return batch
    }
}
