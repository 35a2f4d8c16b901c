import CLibPQ

/// How a connection is opened (issue 51.1): Parley's defaults, the configured conninfo, the
/// hosts' order.
extension PostgresConnection {
    /// What every connection starts from; the configured conninfo overrides any of them. A
    /// host that does not answer is skipped after 2 s (libpq's smallest `connect_timeout`; with
    /// several hosts, libpq goes on to the next), and TCP keepalives and `tcp_user_timeout` end
    /// connections across a network that dropped them (issue 51.1).
    static let connectionDefaults = [
        ("connect_timeout", "2"), ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "3"),
        ("keepalives_count", "3"), ("tcp_user_timeout", "10000")
    ]

    /// Connects with `connectionDefaults`, then `conninfo` (a connection string or URI), then
    /// `overrides`, each overriding what comes before (libpq's `expand_dbname`).
    static func connect(_ conninfo: String, overriding overrides: [(String, String)] = []) -> OpaquePointer? {
        let hostOrder = HostOrder.overrides(conninfo, givenUp: RoundTripWatchdog.shared.givenUp)
        let parameters = connectionDefaults + [("dbname", conninfo)] + hostOrder + overrides
        return withCStrings(parameters.map(\.0) + [nil]) { keywords in
            withCStrings(parameters.map(\.1) + [nil]) { values in PQconnectdbParams(keywords, values, 1) }
        }
    }
}
