import CLibPQ
import Foundation
import Logging
import Metrics
import Synchronization

/// Gives up on a database server that stopped answering (issue 51.1), so that a stalled or
/// partitioned primary costs no more than a dead one.
///
/// A dead server closes its connections and libpq fails at once; a stalled one (a frozen
/// process, a partition in which the kernel still acknowledges) leaves every round trip waiting
/// for ever, and PostgreSQL's own statement timeout cannot help, since the frozen server is the
/// one that would enforce it. So a thread of its own looks at every connection four times a
/// second. When the conninfo names several servers (there is another to go to), a round trip
/// waiting longer than `suspectAfter` has its server probed: a new
/// connection to that host and port alone, with the connection's own parameters (so also
/// `target_session_attrs`) and `probeTimeout`. When the probe times out, is refused, or finds
/// the server read-only, shutting down or starting up (a primary that Patroni demoted), or a
/// replica no longer a standby (one that Patroni promoted, under `target_session_attrs=standby`), the
/// server is given up: every connection to it is cut (its socket shut down), waiting or idle,
/// and the pool replaces them, libpq walking the host list to the new primary (on which the
/// server given up comes last, `HostOrder`). A server that
/// answers the probe (a slow statement, a lock wait) is left alone; one that refuses for a reason
/// of its own (too many clients) is alive too. A round trip older than its connection's hard
/// deadline is cut whatever the probe says.
final class RoundTripWatchdog: Sendable {
    static let shared = RoundTripWatchdog()

    static let scanInterval: Double = 0.25
    static let suspectAfter: Duration = .seconds(1)
    /// libpq's smallest `connect_timeout`.
    static let probeTimeout = 2
    /// How often one server is probed at most.
    static let probeInterval: Duration = .seconds(1)

    private struct State {
        var watches: [ObjectIdentifier: RoundTripWatch] = [:]
        var logger: Logger?
        var started = false
        /// Servers given up on, which new connections try last (`HostOrder`) until one reaches
        /// such a server again.
        var givenUp: Set<RoundTripWatch.Server> = []
    }

    private let state = Mutex(State())
    private let cuts = Counter(label: "parley_db_connections_cut_total")

    func watch(_ watch: RoundTripWatch, logger: Logger) {
        let start = state.withLock { state in
            state.watches[ObjectIdentifier(watch)] = watch
            state.logger = state.logger ?? logger
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "parley-db-watchdog"
        thread.start()
    }

    var givenUp: Set<RoundTripWatch.Server> { state.withLock { $0.givenUp } }

    /// A connection reached `server`: it takes its place in the host order again.
    func reached(_ server: RoundTripWatch.Server) {
        state.withLock { state in
            if !state.givenUp.isEmpty { state.givenUp.remove(server) }
        }
    }

    func forget(_ watch: RoundTripWatch) {
        _ = state.withLock { $0.watches.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    private func run() {
        var probedAt: [RoundTripWatch.Server: ContinuousClock.Instant] = [:]
        while true {
            Thread.sleep(forTimeInterval: Self.scanInterval)
            let (watches, logger) = state.withLock { (Array($0.watches.values), $0.logger) }
            let now = ContinuousClock.now
            var suspects: [RoundTripWatch.Server: String] = [:]
            for watch in watches {
                let seen = watch.snapshot
                guard let startedAt = seen.startedAt, let server = seen.server else { continue }
                let waited = now - startedAt
                if let deadline = watch.hardDeadline, waited > deadline {
                    logger?.warning(
                        "a database round trip passed its deadline; its connection is given up", metadata: ["server": "\(server)"])
                    watch.cut()
                    cuts.increment()
                } else if watch.hasAlternatives, waited > Self.suspectAfter {
                    suspects[server] = watch.conninfo
                }
            }
            for (server, conninfo) in suspects where probedAt[server].map({ now - $0 > Self.probeInterval }) ?? true {
                probedAt[server] = now
                // On a thread of its own: a probe may wait its whole timeout, and the scan goes on
                // meanwhile (hard deadlines are kept to the scan's quarter second).
                let thread = Thread { [self] in probe(server, conninfo: conninfo, logger: logger) }
                thread.name = "parley-db-probe"
                thread.start()
            }
        }
    }

    /// Gives `server` up, cutting every connection to it, unless it answers.
    private func probe(_ server: RoundTripWatch.Server, conninfo: String, logger: Logger?) {
        guard let reason = Self.goneReason(server, conninfo: conninfo) else { return }
        let victims = state.withLock { state in
            state.givenUp.insert(server)
            return state.watches.values.filter { $0.snapshot.server == server }
        }
        logger?.warning(
            "the database server stopped answering; its connections are given up",
            metadata: ["server": "\(server)", "reason": "\(reason)", "connections": "\(victims.count)"])
        for victim in victims { victim.cut() }
        cuts.increment(by: victims.count)
    }

    /// Why `server` is gone (libpq's message), or nil while it still takes connections as a
    /// writable primary would (or refuses them for a reason that says it is alive).
    static func goneReason(_ server: RoundTripWatch.Server, conninfo: String) -> String? {
        let overrides = [("host", server.host), ("port", server.port), ("connect_timeout", String(probeTimeout))]
        guard let connection = PostgresConnection.connect(conninfo, quickly: true, overriding: overrides) else { return nil }
        defer { PQfinish(connection) }
        guard PQstatus(connection) != CONNECTION_OK else { return nil }
        let message = PostgresConnection.errorMessage(connection)
        return goneMarkers.contains { message.localizedCaseInsensitiveContains($0) } ? message : nil
    }

    /// libpq's words for a server that is not there or is no longer a writable primary.
    static let goneMarkers = [
        "timeout expired", "Connection refused", "No such file or directory", "No route to host", "Network is unreachable",
        "session is read-only", "server is in hot standby mode", "is shutting down", "is starting up", "not yet accepting connections",
        "in recovery mode", "not in hot standby mode"
    ]
}
