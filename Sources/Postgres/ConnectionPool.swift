import DequeModule
import NIOCore
import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization

/// A bounded pool of libpq connections with its own threads, one per connection.
///
/// Every database job runs on the pool's `NIOThreadPool`, never on an event loop, with one
/// connection lent to it exclusively. Requests beyond the pool size wait for a connection in
/// arrival order. As a lifecycle `Service`, the pool closes its connections on graceful shutdown.
public final class ConnectionPool: Service, Sendable {
    public struct Configuration: Sendable {
        public var conninfo: String
        public var size: Int

        public init(conninfo: String, size: Int) {
            self.conninfo = conninfo
            self.size = max(1, size)
        }
    }

    struct State {
        var idle: [PostgresConnection] = []
        var opened = 0
        /// Each waiter is resumed with a connection, or with nil meaning "open a new one".
        var waiters: Deque<CheckedContinuation<PostgresConnection?, any Error>> = []
        var isClosed = false
        /// Statements waiting to be pipelined, and how many threads are draining them.
        var pipelineQueue: Deque<PipelinedJob> = []
        var pipelineRunners = 0
    }

    let configuration: Configuration
    let logger: Logger
    let threads: NIOThreadPool
    let state = Mutex(State())

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.maxPipelineRunners = max(1, min(configuration.size / 2, System.coreCount / 2))
        self.threads = NIOThreadPool(numberOfThreads: configuration.size)
        threads.start()
    }

    /// Waits for graceful shutdown, then closes the pool.
    public func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Closes idle connections, fails waiters and stops the threads.
    public func close() async {
        let (waiters, idle) = state.withLock { state in
            state.isClosed = true
            defer { state.waiters.removeAll(); state.idle.removeAll() }
            return (state.waiters, state.idle)
        }
        for waiter in waiters { waiter.resume(throwing: Self.closedError) }
        _ = idle  // released here: each connection's deinit finishes it
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
        case use(PostgresConnection), open, wait, closed
    }

    private func lease() async throws -> PostgresConnection {
        // Fast path without a continuation: suspending and resuming the task would cost a trip
        // through the executor on every query, even when a connection is idle.
        switch state.withLock({ takeOrReserve(&$0) }) {
        case .use(let connection): return connection
        case .open: return try await open()
        case .closed: throw Self.closedError
        case .wait: break
        }
        let leased: PostgresConnection? = try await withCheckedThrowingContinuation { continuation in
            let next: Lease = state.withLock { state in
                let next = takeOrReserve(&state)
                if case .wait = next { state.waiters.append(continuation) }
                return next
            }
            switch next {
            case .use(let connection): continuation.resume(returning: connection)
            case .open: continuation.resume(returning: nil)
            case .wait: break
            case .closed: continuation.resume(throwing: Self.closedError)
            }
        }
        if let leased { return leased }
        return try await open()
    }

    /// An idle connection, or the right to open one while under the size, or the need to wait.
    func takeOrReserve(_ state: inout State) -> Lease {
        if state.isClosed { return .closed }
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
            let conninfo = configuration.conninfo
            let logger = logger
            return try await threads.runIfActive { try PostgresConnection(conninfo: conninfo, logger: logger) }
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
        let waiter: CheckedContinuation<PostgresConnection?, any Error>? = state.withLock { state in
            if let waiter = state.waiters.popFirst() { return waiter }
            if !state.isClosed { state.idle.append(connection) }
            return nil
        }
        waiter?.resume(returning: connection)
    }

    /// A connection was dropped: let the next waiter open a new one in its place.
    func slotFreed() {
        let waiter: CheckedContinuation<PostgresConnection?, any Error>? = state.withLock { state in
            if let waiter = state.waiters.popFirst() { return waiter }
            state.opened -= 1
            return nil
        }
        waiter?.resume(returning: nil)
    }

    /// At most half the connections, and one per two cores, drain the pipeline: transactions
    /// always find a connection free, and batches grow larger under load (measured on 2 cores:
    /// one runner beat two).
    /// Computed once: `System.coreCount` reads cgroup files on every call.
    let maxPipelineRunners: Int

    /// Queues a statement for pipelining; true when the caller should start another runner.
    func enqueue(_ job: PipelinedJob) -> Bool {
        state.withLock { state in
            state.pipelineQueue.append(job)
            guard state.pipelineRunners < maxPipelineRunners else { return false }
            state.pipelineRunners += 1
            return true
        }
    }

    /// The next statements for a runner to send, or nil (and one runner fewer) when none wait.
    func nextBatch() -> [PipelinedJob]? {
        state.withLock { state in
            guard !state.pipelineQueue.isEmpty else {
                state.pipelineRunners -= 1
                return nil
            }
            let count = min(state.pipelineQueue.count, Self.maxPipelineBatch)
            defer { state.pipelineQueue.removeFirst(count) }
            return Array(state.pipelineQueue.prefix(count))
        }
    }

    static let closedError = PostgresError(kind: .usage, message: "the connection pool is closed")
}
