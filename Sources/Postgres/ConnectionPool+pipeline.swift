import DequeModule
import Synchronization

extension ConnectionPool {
    /// A statement waiting for a pipeline, with the continuation of the task that wants it.
    struct PipelinedJob: PoolQueueItem, Sendable {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let sql: String
        let parameters: [any PostgresBindable]
        let complete: @Sendable (Result<PostgresResult, any Error>) -> Void
    }

    /// The most statements sent in one round trip; small enough that neither side's socket
    /// buffer can fill while the other is still writing.
    static let maxPipelineBatch = 32

    /// Runs one read-only statement, pipelined with the statements of concurrent callers.
    ///
    /// Under load, statements queue while the pool's connections are busy and each database
    /// thread then sends everything queued in one round trip: the server answers a batch in one
    /// wake-up, and neither side pays a context switch per statement. Only for reads: a batch
    /// shares one implicit transaction and may be sent again (see `PostgresConnection.pipeline`);
    /// writes belong in `withTransaction` or `withConnection`. The queue is bounded, a statement
    /// waits at most `acquireTimeout` for its batch, and a cancelled caller's statement leaves it.
    public func run<Result: Sendable>(_ query: Query<Result>) async throws -> Result {
        let id = jobIDs.wrappingAdd(1, ordering: .relaxed).newValue
        // Unchecked: every queued job is completed exactly once, by whoever takes it out of the
        // queue (a runner, the sweeper, a cancellation, closing), and this runs on every lookup.
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Result, any Error>) in
                let decode = query.decode
                let job = PipelinedJob(
                    id: id, deadline: .now + configuration.acquireTimeout, sql: query.sql, parameters: query.parameters
                ) { outcome in
                    // Decoding happens here, on the database thread, while the result is alive.
                    switch outcome {
                    case .success(let result):
                        do {
                            continuation.resume(returning: try decode(result))
                        } catch {
                            continuation.resume(throwing: error as? PostgresError ?? PostgresError(kind: .decoding, message: "\(error)"))
                        }
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    }
                }
                enqueue(job)
            }
        } onCancel: {
            abandon(job: id)
        }
    }

    /// Runs one statement pipelined like `run`, without waiting for it: `completion` gets its
    /// outcome on a database thread (a notification whose sender need not wait).
    public func submit(_ query: Query<Void>, completion: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) {
        let id = jobIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let decode = query.decode
        enqueue(
            PipelinedJob(id: id, deadline: .now + configuration.acquireTimeout, sql: query.sql, parameters: query.parameters) { outcome in
                completion(outcome.flatMap { result in Swift.Result { try decode(result) } })
            })
    }

    /// Queues a statement for pipelining, starting a runner (and the deadline sweeper) when
    /// needed, or refuses it at once.
    private func enqueue(_ job: PipelinedJob) {
        // Cancellation is checked under the lock `abandon` takes: see `lease`.
        let (outcome, startSweep) = state.withLock { $0.enqueue(job, isCancelled: Task.isCancelled) }
        if startSweep { startSweeping() }
        switch outcome {
        case .queued: break
        case .startRunner: startPipelineRunner()
        case .full: job.complete(.failure(busyError("\(configuration.maxQueuedStatements) statements are already queued")))
        case .cancelled: job.complete(.failure(CancellationError()))
        }
    }

    /// A cancelled caller's statement leaves the queue (unless a runner took it meanwhile).
    private func abandon(job id: UInt64) {
        state.withLock { $0.abandonStatement(id) }?.complete(.failure(CancellationError()))
    }

    /// The next statements for a runner to send, or nil (and one runner fewer) when none wait.
    func nextBatch() -> [PipelinedJob]? {
        state.withLock { $0.nextBatch(limit: Self.maxPipelineBatch) }
    }

    /// Starts draining the queue on a connection of its own: directly on a database thread when
    /// a connection is idle (or may be opened), through an async lease when all are busy.
    private func startPipelineRunner() {
        switch withBookkeeping({ $0.lease().lease }) {
        case .use(let connection):
            threads.submit { _ in self.drain(on: connection) }
        case .open:
            let (conninfo, logger, session) = (configuration.conninfo, logger, configuration.session)
            threads.submit { _ in
                do {
                    self.drain(on: try PostgresConnection(conninfo: conninfo, logger: logger, settings: session))
                } catch {
                    self.slotFreed()
                    self.failQueued(error)
                }
            }
        case .queued, .full, .cancelled:
            tasks.spawn("a pipeline drain on a leased connection") {
                do {
                    try await self.withConnection { connection in
                        while let batch = self.nextBatch() { self.send(batch, on: connection) }
                    }
                } catch {
                    self.failQueued(error)
                }
            }
        case .closed:
            failQueued(Self.closedError)
        }
    }

    private func drain(on connection: PostgresConnection) {
        while let batch = nextBatch() { send(batch, on: connection) }
        giveBack(connection)
    }

    /// Fails every queued statement (no connection could be had) and retires this runner.
    private func failQueued(_ error: any Error) {
        let failure = error as? PostgresError ?? PostgresError(kind: .connection, message: "\(error)")
        while let batch = nextBatch() {
            batch.forEach { $0.complete(.failure(failure)) }
        }
    }

    private func send(_ batch: [PipelinedJob], on connection: PostgresConnection) {
        PoolMetrics.batchSize.record(batch.count)
        let statements = batch.map { (sql: $0.sql, parameters: $0.parameters) }
        do {
            // An earlier round that went wrong halfway leaves the connection unusable: its unread
            // answers would be taken for this batch's. Reset it first.
            if !connection.isHealthy { try connection.reconnect() }
            let outcomes: [Result<PostgresResult, PostgresError>]
            do {
                outcomes = try connection.pipeline(statements)
            } catch let error as PostgresError where error.kind == .connection {
                // Nothing was answered: the connection was dead before the batch reached the
                // server (it restarted since the connection was last used). Reconnect, resend once.
                try connection.reconnect()
                outcomes = try connection.pipeline(statements)
            }
            zip(batch, outcomes).forEach { job, outcome in job.complete(outcome.mapError { $0 }) }
        } catch {
            let failure = error as? PostgresError ?? PostgresError(kind: .connection, message: "\(error)")
            batch.forEach { $0.complete(.failure(failure)) }
        }
    }
}
