import CLibPQ
import Foundation
import Logging
import Tracing

/// One libpq connection. Owns the `PGconn` and always finishes it.
///
/// libpq allows one thread at a time per connection; the pool guarantees that by lending a
/// connection to exactly one job, which is why the class may cross threads (`@unchecked Sendable`).
/// Every call here blocks: run them on the pool's threads, never on an event loop.
public final class PostgresConnection: @unchecked Sendable {
    var handle: OpaquePointer
    private let conninfo: String
    private let settings: SessionSettings
    private let noticeSink: Unmanaged<NoticeSink>
    /// Statement text → prepared statement, for this server session.
    private var preparedStatements: [StatementText: PreparedStatement] = [:]
    private var preparedCount = 0
    private var useCount: UInt64 = 0
    /// Round trips since the pool lent the connection; lets the pool retry a lent connection
    /// whose very first round trip found the server gone.
    var statementsSinceLease = 0
    /// Statements whose answers nobody waits for (BEGIN, SAVEPOINT), sent in the round trip of
    /// the next statement (see `sendWithNext`).
    var deferredStatements: [String] = []
    /// The trace whose span each round trip is (`tracingRoundTrips`); nil: none.
    var traceContext: InstrumentationContext?
    /// This connection's round trips, as the `RoundTripWatchdog` sees them.
    let watch: RoundTripWatch

    /// Connects with a libpq connection string or URI (`host=… dbname=…` or `postgresql://…`),
    /// and applies `settings`.
    public init(conninfo: String, logger: Logger, settings: SessionSettings = SessionSettings()) throws {
        self.conninfo = conninfo
        self.settings = settings
        self.noticeSink = Unmanaged.passRetained(NoticeSink(logger: logger))
        self.watch = RoundTripWatch(
            conninfo: conninfo, hasFallback: settings.hasFallback, hardDeadline: settings.statementTimeout.map { $0 + .seconds(5) })
        guard let handle = Self.connect(conninfo, quickly: watch.hasAlternatives) else {
            noticeSink.release()
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.errorMessage(handle)
            PQfinish(handle)
            noticeSink.release()
            throw PostgresError(kind: .connection, message: message)
        }
        self.handle = handle
        watch.connected(handle)
        RoundTripWatchdog.shared.watch(watch, logger: logger)
        installNoticeProcessor()
        try applySettings()
    }

    deinit {
        RoundTripWatchdog.shared.forget(watch)
        watch.disconnecting()
        PQfinish(handle)
        noticeSink.release()
    }

    /// Set when the connection was left in a state it cannot be reused from.
    var isPoisoned = false

    /// Whether the connection is usable.
    public var isHealthy: Bool { !isPoisoned && PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and awaiting ROLLBACK).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Re-establishes a lost or unusable connection; prepared statements are gone with the old
    /// session.
    public func reconnect() throws {
        watch.disconnecting()
        // A new PGconn rather than PQreset: the hosts' order may have changed since (`HostOrder`).
        if let fresh = Self.connect(conninfo, quickly: watch.hasAlternatives) {
            PQfinish(handle)
            handle = fresh
        } else {
            PQreset(handle)
        }
        watch.connected(handle)
        preparedStatements.removeAll()
        deferredStatements.removeAll()
        isPoisoned = false
        guard isHealthy else {
            throw PostgresError(kind: .connection, message: Self.errorMessage(handle))
        }
        installNoticeProcessor()
        try applySettings()
    }

    private func applySettings() throws {
        let setup = settings.setup
        if !setup.isEmpty { try execute(setup) }
    }

    /// Runs one parameterised statement as a prepared statement (prepared once per connection).
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> PostgresResult {
        if !deferredStatements.isEmpty { return try roundTrip([(sql, parameters)])[0] }
        statementsSinceLease += 1
        let name = try preparedName(for: sql, parameterCount: parameters.count)
        return try traced(sql, statements: 1) {
            try withCStrings(parameters.map { $0.postgresText }) { values in
                try check(PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0))
            }
        }
    }

    /// Fault injection for the tests: the next pipeline round stops after its first answer, as a
    /// round does when something goes wrong halfway, leaving the rest unread.
    var abandonRoundForTesting = false

    /// Runs SQL text that has no parameters, possibly several statements (migrations, BEGIN).
    @discardableResult
    public func execute(_ sql: String) throws -> PostgresResult {
        statementsSinceLease += 1
        // Deferred statements go ahead in the same simple query (statements separated by ";").
        let text = deferredStatements.isEmpty ? sql : (deferredStatements + [sql]).joined(separator: "; ")
        deferredStatements.removeAll()
        return try traced(text, statements: 1) { try check(PQexec(handle, text)) }
    }

    func isPrepared(_ sql: String) -> Bool {
        preparedStatements[StatementText(sql)] != nil
    }

    func preparedName(for sql: String, parameterCount: Int) throws -> String {
        useCount &+= 1
        let key = StatementText(sql)
        if let statement = preparedStatements[key] {
            preparedStatements[key]?.lastUse = useCount
            return statement.name
        }
        if preparedStatements.count >= settings.maxPreparedStatements { try deallocateLeastRecentlyUsed() }
        preparedCount += 1
        let name = "p\(preparedCount)"
        _ = try watched { try check(PQprepare(handle, name, sql, Int32(parameterCount), nil)) }
        preparedStatements[key] = PreparedStatement(name: name, lastUse: useCount)
        return name
    }

    /// Makes room in the prepared-statement cache (a scan, but only when a new text arrives at a
    /// full cache).
    private func deallocateLeastRecentlyUsed() throws {
        guard let (sql, oldest) = preparedStatements.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        try execute("DEALLOCATE \(oldest.name)")
        preparedStatements[sql] = nil
    }

    /// How many statements are prepared on this connection now.
    var preparedStatementCount: Int { preparedStatements.count }

    /// Turns a `PGresult` into a `PostgresResult`, or an error with SQLSTATE.
    func check(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else { throw lost(Self.errorMessage(handle)) }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return PostgresResult(handle: result)
        }
        // PG_DIAG_* are character constants ('C', 'M', 'n') that Swift does not import.
        let sqlState = field(result, "C")
        let message = field(result, "M") ?? Self.errorMessage(handle)
        let constraint = field(result, "n")
        PQclear(result)
        // Only the server sends a SQLSTATE: a failure without one is libpq's own, about the
        // connection. When PostgreSQL crashes (an immediate stop, a backend killed), libpq hands
        // back such a result while `PQstatus` still says OK.
        guard let sqlState, isHealthy, !sqlState.hasPrefix("08"), sqlState != "57P01" else { throw lost(message, sqlState: sqlState) }
        throw PostgresError(kind: .server, message: message, sqlState: sqlState, constraint: constraint)
    }

    /// The connection failed: it is poisoned, so the pool replaces it rather than lending it again.
    private func lost(_ message: String, sqlState: String? = nil) -> PostgresError {
        isPoisoned = true
        return PostgresError(kind: .connection, message: message, sqlState: sqlState)
    }

    private func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
        return String(cString: value)
    }

    static func errorMessage(_ handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown libpq error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func installNoticeProcessor() {
        PQsetNoticeProcessor(
            handle,
            { context, message in
                guard let context, let message else { return }
                let sink = Unmanaged<NoticeSink>.fromOpaque(context).takeUnretainedValue()
                sink.logger.debug("postgres notice", metadata: ["notice": "\(String(cString: message).trimmingCharacters(in: .newlines))"])
            }, noticeSink.toOpaque())
    }
}

/// A statement's text as the key of the prepared-statement cache, hashed by its length and its
/// first and last bytes: String's own hash normalises every byte of a text of kilobytes on every
/// statement (a twentieth of the server's CPU under sends, profiled); equality still compares
/// whole texts (bytewise for ASCII texts).
struct StatementText: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { utf8 in
            hasher.combine(utf8.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8.prefix(64))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8.suffix(64))))
        }
    }

    static func == (lhs: StatementText, rhs: StatementText) -> Bool {
        lhs.text == rhs.text
    }
}

/// A statement prepared on a connection, and when it was last used (for the cache's eviction).
private struct PreparedStatement {
    let name: String
    var lastUse: UInt64
}

/// Routes server NOTICE lines into the logger instead of stderr.
private final class NoticeSink {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}
