/// What every pooled connection is set up with, so that no statement, lock wait or forgotten
/// transaction can hold a connection (and the request behind it) indefinitely.
public struct SessionSettings: Sendable, Equatable {
    /// `statement_timeout`: a statement running longer is cancelled (SQLSTATE 57014).
    public var statementTimeout: Duration? = .seconds(15)
    /// `lock_timeout`: a statement waiting longer for a row or table lock fails (SQLSTATE 55P03).
    public var lockTimeout: Duration? = .seconds(5)
    /// `idle_in_transaction_session_timeout`: a transaction left open and idle is ended.
    public var idleInTransactionTimeout: Duration? = .seconds(60)
    /// Prepared statements kept per connection; the least recently used is deallocated beyond
    /// (channel lists build statements from their filters, so the set of texts is open-ended).
    public var maxPreparedStatements = 256
    /// Whether the caller has somewhere else to go when this connection's server stops
    /// answering, even though the conninfo names only one server (a read replica's: the primary
    /// serves the read then). Such a server, like one of several hosts, is probed and given up
    /// when it stalls, and a connection to it is not waited for past 2 s (`RoundTripWatchdog`).
    public var hasFallback = false

    public init() {}

    /// The SET statements that apply the timeouts; empty when there are none.
    var setup: String {
        let settings: [(String, Duration?)] = [
            ("statement_timeout", statementTimeout), ("lock_timeout", lockTimeout),
            ("idle_in_transaction_session_timeout", idleInTransactionTimeout)
        ]
        return settings.compactMap { name, value in
            value.map { "SET \(name) = \($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)" }
        }.joined(separator: "; ")
    }
}
