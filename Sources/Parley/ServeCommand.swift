import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import ParleyContainer
import ParleyFiles
import ParleyHTTP
import Postgres

/// Runs the HTTP server until SIGTERM or SIGINT, then drains requests and closes the pool.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the HTTP server.")

    func run() async throws {
        // A log reader that went away (a closed pipe) must not kill the server: the write fails
        // with EPIPE instead, and the line is lost.
        signal(SIGPIPE, SIG_IGN)
        MemoryReturn.configure()
        let config = try loadConfig()
        let logger = makeLogger(config)
        defer { LogWriter.standardError.flush() }
        let metricsRegistry = bootstrapMetrics()
        // Before anything makes spans: a tracer can be bootstrapped once, before first use.
        let tracing = try bootstrapTracing(config, logger: logger)
        try await checkMigrations(config, logger: logger)
        let container = try Container.live(config: config, logger: logger, metricsRegistry: metricsRegistry)
        try await checkFileKey(container, logger: logger)
        let app = buildApplication(container: container, with: tracing)
        logger.info(
            "parley listening", metadata: ["url": "http://\(config.host):\(config.port)", "queue_workers": "\(config.queueWorkers)"])
        // 1 on an instance that runs the shared queues, 0 on an API-only one: an alert sees when
        // none does (ParleyNoQueueWorkers).
        Gauge(label: "parley_queue_workers").record(config.queueWorkers ? 1 : 0)
        if !config.queueWorkers {
            logger.notice("queue workers off: pushes, webhooks, scheduled messages and jobs wait for an instance that runs them")
        }
        try await app.runService()
    }
}

/// Refuses to serve (or administer) a database with unapplied or changed migrations, unless told
/// to apply them.
func checkMigrations(_ config: Config, logger: Logger) async throws {
    let status = try await withMigrationConnection(config, logger: logger) { connection, migrator in
        if config.autoMigrate { try migrator.migrate(on: connection) }
        return try migrator.status(on: connection)
    }
    if let problem = status.problem { throw StartupRefusal(problem) }
}

extension MigrationStatus {
    /// What is wrong with the database's migrations, worded for the operator (`serve`, `doctor`).
    var problem: String? {
        if !changed.isEmpty {
            return "Applied migrations \(changed) were changed since; restore them and add a new migration instead."
        }
        if !pending.isEmpty {
            let names = pending.map(\.name).joined(separator: ", ")
            return "The database has unapplied migrations (\(names)). Run `parley migrate` or set PARLEY_AUTO_MIGRATE=true."
        }
        return nil
    }
}

/// Refuses to serve stored files with a master key that opens none of them: downloads would all
/// fail, and new files would be stored under a key the old ones do not share. A few files that do
/// not open while others do are damaged ones, logged.
func checkFileKey(_ container: Container, logger: Logger) async throws {
    do {
        try await container.files.prepareStorage()
    } catch {
        await container.shutdown()
        throw StartupRefusal("The file store (PARLEY_FILE_STORE=s3) cannot be used: \(error)")
    }
    let check = await container.files.checkMasterKey()
    if check.isWrongKey {
        await container.shutdown()
        throw StartupRefusal(
            "PARLEY_FILE_KEY opens none of the \(check.checked) stored files tried (\(check.failures[0].reason)). "
                + Findings.wrongKeyAdvice)
    }
    for failure in check.failures {
        logger.error("a stored file does not open", metadata: ["file_id": "\(failure.fileID)", "reason": "\(failure.reason)"])
    }
}

/// Applies pending migrations and exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply pending database migrations.")

    func run() async throws {
        let config = try loadConfig()
        let logger = makeLogger(config)
        let applied = try await withMigrationConnection(config, logger: logger) { connection, migrator in
            try migrator.migrate(on: connection)
        }
        logger.info("migrations done", metadata: ["applied": "\(applied.count)"])
    }
}

/// Why the command cannot start, worded for the operator; printed as `Error: …` without the
/// usage text that ArgumentParser adds to a `ValidationError` (nothing was wrong with the
/// command line).
struct StartupRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func loadConfig() throws -> Config {
    do {
        return try Config.fromEnvironment()
    } catch let error as ConfigError {
        throw StartupRefusal(error.description)
    }
}

func makeLogger(_ config: Config) -> Logger {
    let (level, format) = (config.logLevel, config.logFormat)
    LoggingSystem.bootstrap { label in LogLineHandler(label: label, level: level, format: format) }
    return Logger(label: "parley")
}

/// Runs `body` on a connection of its own, outside any event loop.
func withMigrationConnection<T: Sendable>(
    _ config: Config, logger: Logger, _ body: @escaping @Sendable (PostgresConnection, Migrator) throws -> T
) async throws -> T {
    let pool = ConnectionPool(configuration: .init(conninfo: config.databaseURL, size: 1), logger: logger)
    let migrator = Migrator(directory: URL(fileURLWithPath: config.migrationsDirectory), logger: logger)
    do {
        let value = try await pool.withConnection { try body($0, migrator) }
        await pool.close()
        return value
    } catch {
        await pool.close()
        throw error
    }
}
