import Logging
import Metrics
import ParleyCore
import Postgres
import Traced

/// Reads served by read replicas, and the positions that keep them from showing a caller less
/// than they wrote (issue 51.3).
extension Store {
    /// Runs `body`, which only reads, on a read replica when one may serve the caller, otherwise
    /// as `read` on the primary. For the reads that tolerate a replica's lag for what others
    /// wrote (history, threads, search, channel lists, lookups, changelogs, statistics); never for
    /// a read a write depends on, nor for the event stream.
    public func replicaRead<T: Sendable>(_ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        guard let replicas else { return try await read(body) }
        let served: T? = try await mappingUnavailable("db.replica_read") {
            guard let position = await callersPosition() else { return nil }
            let (afterCommit, traceParent) = (AfterCommit(), TraceParent.current)
            let value = try await replicas.read(after: position) { connection in
                try body(Repositories(connection: connection, afterCommit: afterCommit, traceParent: traceParent))
            }
            await afterCommit.run()
            return value
        }
        if let served { return served }
        ReplicaMetrics.reads("primary").increment()
        return try await read(body)
    }

    /// `fetch` on a read replica when one may serve the caller (see `replicaRead`): lookups.
    public func replicaFetch<T: Sendable>(_ lookup: Lookup<T>) async throws -> T {
        guard let replicas else { return try await fetch(lookup) }
        let served: T? = try await mappingUnavailable("db.replica_lookup") {
            guard let position = await callersPosition() else { return nil }
            return try await replicas.fetch(after: position, lookup.query)
        }
        if let served { return served }
        ReplicaMetrics.reads("primary").increment()
        return try await fetch(lookup)
    }

    /// Where the caller's last write ended: `.some(nil)` when they have none (or the task has no
    /// caller), nil when it cannot be read (the read then goes to the primary).
    private func callersPosition() async -> Int64?? {
        guard let caller = ReadPositions.key(Caller.current) else { return .some(nil) }
        do {
            return .some(try await pool.run(ReadPositions.lookup(caller)))
        } catch {
            ReplicaMetrics.fallbacks("unknown").increment()
            return nil
        }
    }

    /// After a write has committed, when replicas serve reads: records where the caller's write
    /// ended, before the caller is answered, so that their next read (on any instance) waits for
    /// it. A position that cannot be recorded (the primary lost just after the commit) is logged:
    /// the write stands, and answering it 503 would invite a second one.
    func recordWrite() async {
        guard let replicas, let caller = ReadPositions.key(Caller.current) else { return }
        do {
            try await pool.run(ReadPositions.record(caller))
        } catch {
            Self.unrecordedWrites.increment()
            replicas.logger.warning("a write's read position was not recorded", metadata: ["error": "\(error)"])
        }
    }

    private static let unrecordedWrites = Counter(label: "parley_db_read_positions_unrecorded_total")
}
