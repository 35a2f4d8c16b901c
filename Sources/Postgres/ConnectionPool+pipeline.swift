import DequeModule
import Synchronization

extension ConnectionPool {
    /// A statement waiting for a pipeline, with the continuation of the task that wants it.
    struct PipelinedJob: Sendable {
        let sql: String
        let parameters: [any PostgresBindable]
        let complete: @Sendable (Result<PostgresResult, PostgresError>) -> Void
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
    /// writes belong in `withTransaction` or `withConnection`.
    public func run<Result: Sendable>(_ query: Query<Result>) async throws -> Result {
        // Unchecked: every queued job is completed exactly once, by `send` or by `failQueued`,
        // and this runs on every lookup.
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Result, any Error>) in
            let decode = query.decode
            let job = PipelinedJob(sql: query.sql, parameters: query.parameters) { outcome in
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
            if enqueue(job) { startPipelineRunner() }
        }
    }

    /// Starts draining the queue on a connection of its own: directly on a database thread when
    /// a connection is idle (or may be opened), through an async lease when all are busy.
    private func startPipelineRunner() {
        switch state.withLock({ takeOrReserve(&$0) }) {
        case .use(let connection):
            threads.submit { _ in self.drain(on: connection) }
        case .open:
            let conninfo = configuration.conninfo
            let logger = logger
            threads.submit { _ in
                do {
                    self.drain(on: try PostgresConnection(conninfo: conninfo, logger: logger))
                } catch {
                    self.slotFreed()
                    self.failQueued(error)
                }
            }
        case .wait:
            Task {
                do {
                    try await withConnection { connection in
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
        let statements = batch.map { (sql: $0.sql, parameters: $0.parameters) }
        do {
            let outcomes: [Result<PostgresResult, PostgresError>]
            do {
                outcomes = try connection.pipeline(statements)
            } catch let error as PostgresError where error.kind == .connection {
                // Nothing was answered: the connection was dead before the batch reached the
                // server (it restarted since the connection was last used). Reconnect, resend once.
                try connection.reconnect()
                outcomes = try connection.pipeline(statements)
            }
            zip(batch, outcomes).forEach { job, outcome in job.complete(outcome) }
        } catch {
            let failure = error as? PostgresError ?? PostgresError(kind: .connection, message: "\(error)")
            batch.forEach { $0.complete(.failure(failure)) }
        }
    }
}
