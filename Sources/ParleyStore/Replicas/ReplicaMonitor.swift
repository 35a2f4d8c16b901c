import DequeModule
import Logging
import Metrics
import Postgres
import ServiceLifecycle
import Synchronization

/// Which read replicas may serve reads (issue 51.3), from what they answer four times a second.
///
/// A replica is in the rotation while it answers, is a standby (one Patroni promoted is no
/// longer a replica of anything), and lags the primary by at most `maxLag`; it leaves when one of
/// those fails and comes back once its lag is down to half the bound (so that a replica near the
/// bound does not flap). Its lag is measured in time, from samples of the primary's WAL position:
/// how long ago the primary first had WAL that the replica has not replayed yet, so an idle
/// primary makes no lag. A replica whose last answer is older than `staleAfter` is out as well
/// (a stalled one stops answering its monitor before anything else notices).
///
/// Each instance monitors on its own, from the database alone: nothing here is another
/// instance's business.
public final class ReplicaMonitor: Service, Sendable {
    public struct Settings: Sendable {
        /// The lag past which a replica leaves the rotation.
        public var maxLag: Duration = .seconds(2)
        public var interval: Duration = .milliseconds(250)
        public init() {}
    }

    /// What the monitor last saw of one replica.
    struct Seen: Sendable {
        var replayed: Int64 = -1
        var inRotation = false
        var answeredAt: ContinuousClock.Instant?
    }

    let primary: ConnectionPool
    let replicas: [(name: String, pool: ConnectionPool)]
    let settings: Settings
    let logger: Logger
    private let seen: Mutex<[String: Seen]>
    /// The primary's WAL positions, newest last, as long as a lag is measured.
    private let primarySamples = Mutex(Deque<(at: ContinuousClock.Instant, lsn: Int64)>())

    public init(primary: ConnectionPool, replicas: [(name: String, pool: ConnectionPool)], settings: Settings, logger: Logger) {
        self.primary = primary
        self.replicas = replicas
        self.settings = settings
        self.logger = logger
        self.seen = Mutex(Dictionary(uniqueKeysWithValues: replicas.map { ($0.name, Seen()) }))
    }

    /// A replica that missed this many polls is out of the rotation.
    var staleAfter: Duration { settings.interval * 4 + .milliseconds(500) }

    /// How far `name` has replayed, when it may serve reads now; nil when it is out.
    func serving(_ name: String) -> Int64? {
        guard let seen = seen.withLock({ $0[name] }), seen.inRotation, let answeredAt = seen.answeredAt,
            ContinuousClock.now - answeredAt < staleAfter
        else { return nil }
        return seen.replayed
    }

    /// A read on `name` failed for want of the replica: it is out until it answers its monitor.
    func failed(_ name: String) {
        seen.withLock { $0[name]?.inRotation = false }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.repeating(every: self.settings.interval) { await self.samplePrimary() } }
                for replica in self.replicas {
                    group.addTask { await self.repeating(every: self.settings.interval) { await self.poll(replica.name, replica.pool) } }
                }
                group.addTask { await self.repeating(every: .seconds(30)) { await self.sweepPositions() } }
            }
        }
    }

    private func repeating(every interval: Duration, _ work: () async -> Void) async {
        while !Task.isCancelled {
            await work()
            try? await Task.sleep(for: interval)
        }
    }

    private func samplePrimary() async {
        let query = Query("SELECT (pg_current_wal_lsn() - '0/0')::bigint AS lsn") { try $0[0].decode("lsn", as: Int64.self) }
        guard let lsn = try? await primary.run(query) else { return }
        let now = ContinuousClock.now
        let kept = max(settings.maxLag * 4, .seconds(10))
        primarySamples.withLock { samples in
            samples.append((now, lsn))
            while let oldest = samples.first, now - oldest.at > kept, samples.count > 1 { samples.removeFirst() }
        }
    }

    private func poll(_ name: String, _ pool: ConnectionPool) async {
        let query = Query("SELECT pg_is_in_recovery() AS standby, (pg_last_wal_replay_lsn() - '0/0')::bigint AS replayed") {
            result in (try result[0].decode("standby", as: Bool.self), try result[0].decodeIfPresent("replayed", as: Int64.self))
        }
        let answer = try? await pool.run(query)
        let now = ContinuousClock.now
        guard let (standby, replayed) = answer, standby, let replayed else {
            update(name) { $0.inRotation = false }
            ReplicaMetrics.inRotation(name).record(0)
            return
        }
        let (lag, bytes) = lag(of: replayed, now: now)
        let admitted = update(name) { seen in
            let bound = seen.inRotation ? settings.maxLag : settings.maxLag / 2
            (seen.replayed, seen.answeredAt, seen.inRotation) = (replayed, now, lag <= bound)
            return seen.inRotation
        }
        ReplicaMetrics.lagSeconds(name).record(Double(lag.components.seconds) + Double(lag.components.attoseconds) / 1e18)
        ReplicaMetrics.lagBytes(name).record(bytes)
        ReplicaMetrics.inRotation(name).record(admitted ? 1 : 0)
    }

    @discardableResult
    private func update<T>(_ name: String, _ change: (inout Seen) -> T) -> T {
        seen.withLock { all in
            var entry = all[name] ?? Seen()
            defer { all[name] = entry }
            return change(&entry)
        }
    }

    /// How long ago the primary first had WAL past `replayed` (zero when it has none), and how
    /// many bytes of WAL the replica is behind the newest sample.
    func lag(of replayed: Int64, now: ContinuousClock.Instant) -> (Duration, Int64) {
        primarySamples.withLock { samples in
            let bytes = max(0, (samples.last?.lsn ?? replayed) - replayed)
            guard let firstAhead = samples.first(where: { $0.lsn > replayed }) else { return (.zero, bytes) }
            return (now - firstAhead.at, bytes)
        }
    }

    private func sweepPositions() async {
        let age = Int(settings.maxLag.components.seconds * 1000) * 2 + 10_000
        do {
            try await primary.run(ReadPositions.sweep(olderThanMilliseconds: age))
        } catch {
            logger.debug("read positions were not swept", metadata: ["error": "\(error)"])
        }
    }
}

/// The replicas' metrics on `/metrics`.
enum ReplicaMetrics {
    static func lagSeconds(_ replica: String) -> Gauge { Gauge(label: "parley_db_replica_lag_seconds", dimensions: [("replica", replica)]) }
    static func lagBytes(_ replica: String) -> Gauge { Gauge(label: "parley_db_replica_lag_bytes", dimensions: [("replica", replica)]) }
    static func inRotation(_ replica: String) -> Gauge { Gauge(label: "parley_db_replica_in_rotation", dimensions: [("replica", replica)]) }
    /// Reads that could go to a replica, by where they went (`replica` or `primary`).
    static func reads(_ target: String) -> Counter { Counter(label: "parley_db_reads_total", dimensions: [("target", target)]) }
    /// Reads that went to the primary although replicas are configured, by why: `behind` (the
    /// replica has not replayed the caller's last write), `none` (no replica in the rotation),
    /// `failed` (the replica failed the read), `unknown` (the caller's position could not be read).
    static func fallbacks(_ reason: String) -> Counter {
        Counter(label: "parley_db_read_fallbacks_total", dimensions: [("reason", reason)])
    }
}
