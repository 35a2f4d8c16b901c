import Metrics

/// The pool's figures on `/metrics`. Created on first use, so after the server has bootstrapped
/// its metrics backend (elsewhere, as in tests, they record nothing).
enum PoolMetrics {
    /// Connections lent out or being opened.
    static let inUse = Meter(label: "parley_db_connections_in_use")
    /// Jobs waiting for a connection.
    static let waiting = Meter(label: "parley_db_connection_waiters")
    /// How long each job waited for its connection (0 when one was free).
    static let waitTime = Timer(label: "parley_db_connection_wait_seconds")
    /// Statements per pipelined round trip.
    static let batchSize = Recorder(label: "parley_db_pipeline_batch_size")

    /// Called under the pool's lock after every change of who holds what.
    static func publish(_ books: ConnectionPool.Bookkeeping) {
        inUse.set(books.inUse)
        waiting.set(books.waiters.count)
    }
}
