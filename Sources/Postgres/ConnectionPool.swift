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

    struct Waiter: PoolQueueItem, Sendable {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        /// Resumed with a connection, or with nil meaning "open a new one".
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
    }

    typealias Bookkeeping = PoolBookkeeping<PostgresConnection, Waiter, PipelinedJob>

    let configuration: Configuration
    let logger: Logger
    let threads: NIOThreadPool
    /// Who holds what; every change under this lock, published to the metrics.
    let state: Mutex<Bookkeeping>
    /// Ids of waiters and pipelined statements, so a cancelled caller can find its own in a queue.
    let waiterIDs = Atomic<UInt64>(0)
    let jobIDs = Atomic<UInt64>(0)
    /// The pool's own background work (the deadline sweep, pipeline drains), waited for on close.
    let tasks: TaskOwner

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        // At most half the connections, and one per two cores, drain the pipeline: transactions
        // always find a connection free, and batches grow larger under load (measured on 2 cores:
        // one runner beat two). `System.coreCount` reads cgroup files: read once.
        self.state = Mutex(
            Bookkeeping(
                size: configuration.size, maxWaiting: configuration.maxWaiting, maxQueuedStatements: configuration.maxQueuedStatements,
                maxPipelineRunners: max(1, min(configuration.size / 2, System.coreCount / 2))))
        self.threads = NIOThreadPool(numberOfThreads: configuration.size)
        self.tasks = TaskOwner(logger: logger, shutdownGrace: .seconds(5))
        threads.start()
    }

    /// How long a job may wait, and how many may wait at once (see `Configuration`): for queues
    /// in front of the pool to keep the same bounds.
    public var waitLimits: (timeout: Duration, maxWaiting: Int) { (configuration.acquireTimeout, configuration.maxWaiting) }

    /// Waits for graceful shutdown, then closes the pool.
    public func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Closes idle connections, fails waiters and queued statements, and stops the threads.
    public func close() async {
        let (waiters, idle, queued) = withBookkeeping { $0.close() }
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

    /// Runs `change` under the lock, and publishes the counts it leaves.
    func withBookkeeping<T: Sendable>(_ change: (inout Bookkeeping) -> T) -> T {
        state.withLock { books in
            defer { PoolMetrics.publish(books) }
            return change(&books)
        }
    }

    private func lease() async throws -> PostgresConnection {
        // Fast path without a continuation: suspending and resuming the task would cost a trip
        // through the executor on every query, even when a connection is idle.
        switch withBookkeeping({ $0.lease().lease }) {
        case .use(let connection):
            PoolMetrics.waitTime.recordNanoseconds(0)
            return connection
        case .open:
            PoolMetrics.waitTime.recordNanoseconds(0)
            return try await open()
        case .closed: throw Self.closedError
        case .queued, .full, .cancelled: break
        }
        let id = waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let waitStart = ContinuousClock.now
        defer { PoolMetrics.waitTime.record(duration: ContinuousClock.now - waitStart) }
        let leased: PostgresConnection? = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = Waiter(id: id, deadline: .now + configuration.acquireTimeout, continuation: continuation)
                // Cancellation is checked under the lock that `abandon` takes: it either comes
                // before this (and is seen here) or finds the waiter queued.
                let (next, startSweep) = withBookkeeping { $0.lease(queueing: waiter, isCancelled: Task.isCancelled) }
                if startSweep { startSweeping() }
                switch next {
                case .use(let connection): continuation.resume(returning: connection)
                case .open: continuation.resume(returning: nil)
                case .queued: break
                case .closed: continuation.resume(throwing: Self.closedError)
                case .full: continuation.resume(throwing: busyError("\(configuration.maxWaiting) jobs are already waiting"))
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            withBookkeeping { $0.abandonWaiter(id) }?.continuation.resume(throwing: CancellationError())
        }
        if let leased { return leased }
        return try await open()
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
        // A connection left broken, inside a transaction or with statements waiting to be sent is
        // not lent again.
        guard connection.isHealthy, !connection.isInTransaction, !connection.hasDeferredStatements else {
            slotFreed()
            return
        }
        withBookkeeping { $0.returned(connection) }?.continuation.resume(returning: connection)
    }

    /// A connection was dropped: the next waiter opens a new one in its place.
    func slotFreed() {
        withBookkeeping { $0.slotFreed() }?.continuation.resume(returning: nil)
    }

    func busyError(_ reason: String) -> PostgresError {
        PostgresError(kind: .busy, message: "no database connection became free: \(reason)")
    }

    static let closedError = PostgresError(kind: .usage, message: "the connection pool is closed")
}
