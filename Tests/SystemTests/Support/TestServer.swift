import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ParleyContainer
import ParleyCore
import ParleyHTTP
import Postgres
import Synchronization

/// Starts the real application, on a real port, against the test run's PostgreSQL database
/// (`PARLEY_TEST_DATABASE_URL`, created fresh by `scripts/test`).
enum TestServer {
    static let apiToken = "test-api-token-0123456789abcdef"
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Without it (the tests were not started by scripts/test) every test that needs the
    /// database fails with this message, rather than the first one crashing the whole run.
    static var databaseURL: String {
        get throws {
            guard let url = ProcessInfo.processInfo.environment["PARLEY_TEST_DATABASE_URL"] else {
                throw TestFailure("PARLEY_TEST_DATABASE_URL is not set: run the tests with scripts/test")
            }
            return url
        }
    }

    static func config(_ adjust: (inout Config) -> Void = { _ in }) throws -> Config {
        var config = Config(databaseURL: try databaseURL, apiToken: apiToken)
        config.port = 0
        config.migrationsDirectory = packageRoot.appendingPathComponent("migrations").path
        config.databasePoolSize = 4
        // The whole suite shares two cores: a request may wait long for a connection without
        // anything being wrong. The tests of the limit set it themselves.
        config.databaseAcquireTimeout = .seconds(60)
        // Tests send in bursts; the flood test turns the limit back on.
        config.limits.messagesPerSecond = 0
        // Every test's requests come from 127.0.0.1, hundreds of servers' at once on one database:
        // the limits per address are for AddressLimitTests, which sets them.
        config.addressLimits.authFailuresPerMinute = 0
        config.addressLimits.uploadsPerMinute = 0
        // Each server stores uploads in a folder of its own.
        config.fileDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        config.publicURL = "http://files.test"
        // Hundreds of servers run at once on one database: their scheduled-message polls stay
        // rare unless a test of them asks for more.
        config.scheduledDelivery.pollInterval = .seconds(2)
        // Background jobs (GDPR requests) run only on the servers of the tests of them, which
        // share the storage their jobs remove files from.
        config.jobs.enabled = false
        adjust(&config)
        return config
    }

    static var logger: Logger {
        var logger = Logger(label: "parley-test")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` with a client of a freshly started server; the schema is migrated first.
    static func withAPI(
        _ adjust: (inout Config) -> Void = { _ in },
        clock: Clock? = nil,
        logger: Logger = TestServer.logger,
        _ body: @escaping @Sendable (API) async throws -> Void
    ) async throws {
        try await Migrations.shared.ensureApplied()
        var config = try config(adjust)
        // A server on a clock of its own would send the common database's scheduled messages
        // with its times and rules of its time.
        if clock != nil { config.scheduledDelivery.enabled = false }
        let container = try Container.live(config: config, logger: logger, clock: clock ?? .system)
        let app = buildApplication(container: container)
        try await app.test(.live) { client in
            try await body(API(client: client))
        }
    }
}

/// Applies the migrations to the test database once per test process.
actor Migrations {
    static let shared = Migrations()
    private var applied = false

    func ensureApplied() async throws {
        guard !applied else { return }
        // Suites that start together each get here before the first has finished (the actor
        // is reentrant at the await) and wait for the migrator's advisory lock: for as long as
        // the first takes, which on two cores busy with a hundred suites can pass the pool's
        // lock timeout.
        var configuration = ConnectionPool.Configuration(conninfo: try TestServer.databaseURL, size: 1)
        configuration.session.lockTimeout = .seconds(120)
        let pool = ConnectionPool(configuration: configuration, logger: TestServer.logger)
        let migrator = Migrator(directory: TestServer.packageRoot.appendingPathComponent("migrations"), logger: TestServer.logger)
        try await pool.withConnection { try migrator.migrate(on: $0) }
        await pool.close()
        applied = true
    }
}

/// A unique id for this test run, so that tests sharing the database never collide.
func uniqueID(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
}

extension TestServer {
    /// Every "METHOD /path" the application serves.
    static func routes() async throws -> [String] {
        let container = try Container.live(config: try config(), logger: logger)
        let routes = servedRoutes(container: container)
        await container.shutdown()
        return routes
    }
}

/// A value a test body hands back out of `withAPI`.
final class Captured<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Changes the value in place, atomically.
    func update(_ change: (inout Value) -> Void) {
        storage.withLock { change(&$0) }
    }
}
