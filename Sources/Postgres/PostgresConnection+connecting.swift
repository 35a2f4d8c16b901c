import CLibPQ

/// How a connection is opened (issue 51.1): Parley's defaults, the configured conninfo, the
/// hosts' order.
extension PostgresConnection {
    /// What every connection starts from; the configured conninfo overrides any of them. TCP
    /// keepalives and `tcp_user_timeout` end connections across a network that dropped them
    /// (issue 51.1).
    static let connectionDefaults = [
        ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "3"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "10000")
    ]

    /// With another server to go to (`quickly`), one that does not answer is skipped after 2 s
    /// (libpq's smallest), so that libpq goes on to the next soon. With none, a busy server (a
    /// burst of new connections on two cores takes seconds) must not be refused for being slow:
    /// the pool's acquire timeout bounds what a request waits anyway.
    static func connectTimeout(quickly: Bool) -> String {
        quickly ? "2" : "10"
    }

    /// Connects with `connectionDefaults`, then `conninfo` (a connection string or URI), then
    /// `overrides`, each overriding what comes before (libpq's `expand_dbname`).
    static func connect(_ conninfo: String, quickly: Bool, overriding overrides: [(String, String)] = []) -> OpaquePointer? {
        let hostOrder = HostOrder.overrides(conninfo, givenUp: RoundTripWatchdog.shared.givenUp)
        let defaults = [("connect_timeout", connectTimeout(quickly: quickly))] + connectionDefaults
        let parameters = defaults + [("dbname", conninfo)] + hostOrder + overrides
        return withCStrings(parameters.map(\.0) + [nil]) { keywords in
            withCStrings(parameters.map(\.1) + [nil]) { values in PQconnectdbParams(keywords, values, 1) }
        }
    }
}
