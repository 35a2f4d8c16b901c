import Logging
import Postgres
import Synchronization

/// The read replicas one kind of read is served from (issue 51.3): a pool per replica, the
/// monitor that says which may serve, and the choice among them.
///
/// A read goes to a replica in the rotation, taken in turn, when the replica has replayed the
/// caller's last write (`ReadPositions`): the monitor's last figure decides when it is recent
/// enough, otherwise the replica itself is asked on the read's connection, just before the
/// read. Anything else (no replica in the rotation, one behind the caller, one that fails the
/// read, a caller's position that cannot be read) sends the read to the primary.
public final class ReadReplicas: Sendable {
    let monitor: ReplicaMonitor
    let pools: [(name: String, pool: ConnectionPool)]
    let logger: Logger
    private let turn = Atomic<Int>(0)

    public init(monitor: ReplicaMonitor, pools: [(name: String, pool: ConnectionPool)], logger: Logger) {
        self.monitor = monitor
        self.pools = pools
        self.logger = logger
    }

    /// One pool per server that `conninfo` names, each `configuration` but for its conninfo; the
    /// connections give up a stalled replica quickly, since the primary can serve instead.
    public static func pools(
        conninfo: String, configuration: ConnectionPool.Configuration, logger: Logger
    ) -> [(name: String, pool: ConnectionPool)]? {
        Conninfo.perServer(conninfo)?.map { server in
            var configuration = configuration
            configuration.conninfo = server.conninfo
            configuration.session.hasFallback = true
            return (server.server, ConnectionPool(configuration: configuration, logger: logger))
        }
    }

    /// A replica that may serve now, taken in turn, with how far it had replayed when last seen.
    func next() -> (name: String, pool: ConnectionPool, replayed: Int64)? {
        let serving = pools.compactMap { entry in monitor.serving(entry.name).map { (entry.name, entry.pool, $0) } }
        guard !serving.isEmpty else { return nil }
        return serving[(turn.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max) % serving.count]
    }

    /// Runs `body` on a replica that has replayed `position`; nil when none may serve it (the
    /// caller then reads from the primary). Errors of `body`'s own (not the replica's) are thrown.
    func read<T: Sendable>(after position: Int64?, _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T? {
        try await onReplica { replica in
            let mustAsk = position.map { $0 > replica.replayed } ?? false
            return try await replica.pool.withConnection { connection -> T? in
                if mustAsk, let position, !(try connection.run(ReadPositions.replayed(past: position))) { return nil }
                return try body(connection)
            }
        }
    }

    /// `query`, pipelined on a replica that has replayed `position` (see `read`).
    func fetch<T: Sendable>(after position: Int64?, _ query: Query<T>) async throws -> T? {
        try await onReplica { replica in
            if let position, position > replica.replayed, !(try await replica.pool.run(ReadPositions.replayed(past: position))) {
                return nil
            }
            return try await replica.pool.run(query)
        }
    }

    /// `work` on the next replica that may serve; nil (and counted) when there is none, when
    /// `work` finds it behind (nil), or when the replica fails it.
    private func onReplica<T>(
        _ work: ((name: String, pool: ConnectionPool, replayed: Int64)) async throws -> T?
    ) async throws -> T? {
        guard let replica = next() else {
            ReplicaMetrics.fallbacks("none").increment()
            return nil
        }
        do {
            guard let value = try await work(replica) else {
                ReplicaMetrics.fallbacks("behind").increment()
                return nil
            }
            ReplicaMetrics.reads("replica").increment()
            return value
        } catch let error as PostgresError where Self.isTheReplicas(error) {
            // A statement cancelled for its own timeout is the read's cost, not the replica's
            // fault: it is not run again on the primary (`isTheReplicas`).
            logger.warning(
                "a read replica failed a read; the primary serves it", metadata: ["replica": "\(replica.name)", "error": "\(error)"])
            monitor.failed(replica.name)
            ReplicaMetrics.fallbacks("failed").increment()
            return nil
        }
    }

    /// Whether the replica, rather than the read, failed: it was lost or busy, cancelled the read
    /// for a conflict with its recovery, or refused a write (a read that writes is a defect, and
    /// the primary still serves it).
    static func isTheReplicas(_ error: PostgresError) -> Bool {
        switch error.kind {
        case .connection, .busy: true
        case .server: error.isTransient || error.sqlState == "25006" || (error.sqlState?.hasPrefix("57P") ?? false)
        case .decoding, .usage: false
        }
    }
}
