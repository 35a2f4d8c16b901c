import Foundation
import Logging
import Postgres
import Synchronization

/// A throwaway database on the test cluster, created empty for one test.
struct TestDatabase {
    let name: String
    let conninfo: String

    /// Without it (the tests were not started by scripts/test) every test that needs the
    /// cluster fails with this message, rather than the first one crashing the whole run.
    static var adminConninfo: String {
        get throws {
            guard let url = ProcessInfo.processInfo.environment["PARLEY_TEST_ADMIN_DATABASE_URL"] else {
                throw MissingSetting("PARLEY_TEST_ADMIN_DATABASE_URL is not set: run the tests with scripts/test")
            }
            return url
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "postgres-test")
        logger.logLevel = .warning
        return logger
    }()

    static func create() throws -> TestDatabase {
        let name = "parley_pgtest_\(UUID().uuidString.prefix(8).lowercased())"
        let adminConninfo = try adminConninfo
        let admin = try PostgresConnection(conninfo: adminConninfo, logger: logger)
        try admin.execute("CREATE DATABASE \(name)")
        // libpq lets a later keyword override an earlier one.
        return TestDatabase(name: name, conninfo: adminConninfo + " dbname=\(name)")
    }

    func connect() throws -> PostgresConnection {
        try PostgresConnection(conninfo: conninfo, logger: Self.logger)
    }

    func drop() {
        guard let admin = try? PostgresConnection(conninfo: try Self.adminConninfo, logger: Self.logger) else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// A setting the tests need and were not given; swift-testing records the message as the
/// test's failure.
struct MissingSetting: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A folder of migration files written for one test.
struct MigrationFolder {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, sql) in files { try write(name, sql) }
    }

    func write(_ name: String, _ sql: String) throws {
        try sql.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    var migrator: Migrator { Migrator(directory: url, logger: TestDatabase.logger) }
}

/// A flag one task raises and another waits for.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
