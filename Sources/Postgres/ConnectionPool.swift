import DequeModule
import Logging
import NIOCore
import NIOPosix
import OwnedTasks
import ServiceLifecycle
import Synchronization

/// A bounded pool of libpq connections with its own threads, one per connection.
///
/// Every database job runs on the pool's `NIOThreadPool`, never on an event loop, with one
/// connection lent to it exclusively. Jobs beyond the pool size wait for a connection in arrival
/// order, but not for ever and not in unbounded numbers: a job that finds `maxWaiting` others
/// waiting, or waits longer than `acquireTimeout`, fails with a `.busy` error (nothing was sent),
/// and a cancelled job leaves the queue. As a lifecycle `Service`, the pool closes its connections
/// on graceful shutdown.
public final class ConnectionPool: Service, Sendable {
    public struct Configuration: Sendable {
        public var conninfo: String
        public var size: Int
        /// How long a job may wait for a connection (or a pipelined statement for its batch).
        public var acquireTimeout: Duration = .seconds(5)
        /// Jobs that may wait for a connection at once; more are refused straight away.
        public var maxWaiting = 1024
        /// Statements that may wait for a pipeline at once; more are refused straight away.
        public var maxQueuedStatements = 8192
        /// Timeouts and limits of every connection's session.
        public var session = SessionSettings()

        public init(conninfo: String, size: Int) {
            self.conninfo = conninfo
            self.size = max(1, size)
        }
    }

    struct Waiter {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        /// Resumed with a connection, or with nil meaning "open a new one".
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
    }

    struct State {
        var idle: [PostgresConnection] = []
        var opened = 0
        var waiters: Deque<Waiter> = []
        var isClosed = false
        /// Statements waiting to be pipelined, and how many threads are draining them.
        var pipelineQueue: Deque<PipelinedJob> = []
        var pipelineRunners = 0
        /// Whether a task is looking for waiters and statements past their deadline.
        var sweeping = false
        var lastWaiterID: UInt64 = 0
    }

    let configuration: Configuration
    let logger: Logger
    let threads: NIOThreadPool
    let state = Mutex(State())
    /// Ids of pipelined statements, so a cancelled caller can find its own in the queue.
    let jobIDs = Atomic<UInt64>(0)
    /// The pool's own background work (the deadline sweep, pipeline drains), waited for on close.
    let tasks: TaskOwner

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.maxPipelineRunners = max(1, min(configuration.size / 2, System.coreCount / 2))
        self.threads = NIOThreadPool(numberOfThreads: configuration.size)
        self.tasks = TaskOwner(logger: logger, shutdownGrace: .seconds(5))
        threads.start()
    }

    /// Waits for graceful shutdown, then closes the pool.
    public func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Closes idle connections, fails waiters and queued statements, and stops the threads.
    public func close() async {
        let (waiters, idle, queued) = state.withLock { state in
            state.isClosed = true
            defer {
                state.waiters.removeAll()
                state.idle.removeAll()
                state.pipelineQueue.removeAll()
            }
            return (state.waiters, state.idle, state.pipelineQueue)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: Self.closedError) }
        for job in queued { job.complete(.failure(Self.closedError)) }
        _ = idle  // released here: each connection's deinit finishes it
        await tasks.drain(within: tasks.shutdownGrace)
        try? await threads.shutdownGracefully()
    }

    /// Runs `body` with a connection of its own on a database thread.
    ///
    /// When the connection turns out to be dead on the job's first statement (the server restarted
    /// since it was last used), it is re-established and `body` runs once more: nothing had reached
    /// the server, so the retry cannot apply anything twice.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let connection = try await lease()
        do {
            let value = try await threads.runIfActive {
                connection.statementsSinceLease = 0
                do {
                    return try body(connection)
                } catch let error as PostgresError where error.kind == .connection && connection.statementsSinceLease <= 1 {
                    try connection.reconnect()
                    connection.statementsSinceLease = 0
                    return try body(connection)
                }
            }
            giveBack(connection)
            return value
        } catch {
            giveBack(connection)
            throw error
        }
    }

    /// Runs `body` in a transaction on a connection of its own (see `withConnection`).
    public func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try connection.transaction(body)
        }
    }

    enum Lease {
        case use(PostgresConnection)
        case open, wait, closed, full, cancelled
    }

    private func lease() async throws -> PostgresConnection {
        // Fast path without a continuation: suspending and resuming the task would cost a trip
        // through the executor on every query, even when a connection is idle.
        switch state.withLock({ takeOrReserve(&$0) }) {
        case .use(let connection):
            PoolMetrics.waitTime.recordNanoseconds(0)
            return connection
        case .open:
            PoolMetrics.waitTime.recordNanoseconds(0)
            return try await open()
        case .closed: throw Self.closedError
        case .wait, .full, .cancelled: break
        }
        let id = state.withLock { state in
            state.lastWaiterID += 1
            return state.lastWaiterID
        }
        let waitStart = ContinuousClock.now
        defer { PoolMetrics.waitTime.record(duration: ContinuousClock.now - waitStart) }
        let leased: PostgresConnection? = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let deadline = ContinuousClock.now + configuration.acquireTimeout
                let (next, startSweeper) = state.withLock { state -> (Lease, Bool) in
                    var next = takeOrReserve(&state)
                    guard case .wait = next else { return (next, false) }
                    // Checked under the lock that `abandon` takes: a cancellation either comes
                    // before this (and is seen here) or finds the waiter queued.
                    if Task.isCancelled {
                        next = .cancelled
                    } else if state.waiters.count >= configuration.maxWaiting {
                        next = .full
                    } else {
                        state.waiters.append(Waiter(id: id, deadline: deadline, continuation: continuation))
                        PoolMetrics.publish(state)
                    }
                    return (next, startSweepingIfNeeded(&state))
                }
                if startSweeper { startSweeping() }
                switch next {
                case .use(let connection): continuation.resume(returning: connection)
                case .open: continuation.resume(returning: nil)
                case .wait: break
                case .closed: continuation.resume(throwing: Self.closedError)
                case .full: continuation.resume(throwing: busyError("\(configuration.maxWaiting) jobs are already waiting"))
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            abandon(waiter: id)
        }
        if let leased { return leased }
        return try await open()
    }

    /// A cancelled job leaves the queue (unless a connection was handed to it meanwhile).
    private func abandon(waiter id: UInt64) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            defer { PoolMetrics.publish(state) }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }

    /// An idle connection, or the right to open one while under the size, or the need to wait.
    func takeOrReserve(_ state: inout State) -> Lease {
        if state.isClosed { return .closed }
        defer { PoolMetrics.publish(state) }
        if let connection = state.idle.popLast() { return .use(connection) }
        if state.opened < configuration.size {
            state.opened += 1
            return .open
        }
        return .wait
    }

    /// Opens a connection in a slot already reserved for it.
    private func open() async throws -> PostgresConnection {
        do {
            let (conninfo, logger, session) = (configuration.conninfo, logger, configuration.session)
            return try await threads.runIfActive { try PostgresConnection(conninfo: conninfo, logger: logger, settings: session) }
        } catch {
            slotFreed()
            logger.error("cannot connect to PostgreSQL", metadata: ["error": "\(error)"])
            throw error
        }
    }

    func giveBack(_ connection: PostgresConnection) {
        // A connection left broken or inside a transaction is not lent again.
        guard connection.isHealthy, !connection.isInTransaction else {
            slotFreed()
            return
        }
        let waiter: Waiter? = state.withLock { state in
            defer { PoolMetrics.publish(state) }
            if let waiter = state.waiters.popFirst() { return waiter }
            if !state.isClosed { state.idle.append(connection) }
            return nil
        }
        waiter?.continuation.resume(returning: connection)
    }

    /// A connection was dropped: let the next waiter open a new one in its place.
    func slotFreed() {
        let waiter: Waiter? = state.withLock { state in
            defer { PoolMetrics.publish(state) }
            if let waiter = state.waiters.popFirst() { return waiter }
            state.opened -= 1
            return nil
        }
        waiter?.continuation.resume(returning: nil)
    }

    /// At most half the connections, and one per two cores, drain the pipeline: transactions
    /// always find a connection free, and batches grow larger under load (measured on 2 cores:
    /// one runner beat two).
    /// Computed once: `System.coreCount` reads cgroup files on every call.
    let maxPipelineRunners: Int

    func busyError(_ reason: String) -> PostgresError {
        PostgresError(kind: .busy, message: "no database connection became free: \(reason)")
    }

    static let closedError = PostgresError(kind: .usage, message: "the connection pool is closed")
}
