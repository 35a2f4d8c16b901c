import Foundation
import Postgres

/// A database of one test's own in the test cluster, migrated, dropped afterwards: for state
/// the whole server shares (the webhook settings), which tests running beside each other on the
/// common database would otherwise overwrite.
enum OwnDatabase {
    static func with(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let common = try TestServer.databaseURL
        guard let range = common.range(of: "dbname=") else { throw TestFailure("no dbname in \(common)") }
        let name = "parley_own_\(UUID().uuidString.prefix(8).lowercased())"
        let url = common[..<range.upperBound] + name + common[range.upperBound...].drop { $0 != " " }
        let admin = try PostgresConnection(conninfo: common, logger: TestServer.logger)
        _ = try admin.execute("CREATE DATABASE \(name)")
        do {
            let migrations = try PostgresConnection(conninfo: String(url), logger: TestServer.logger)
            _ = try Migrator(directory: TestServer.packageRoot.appendingPathComponent("migrations"), logger: TestServer.logger)
                .migrate(on: migrations)
            try await body(String(url))
        } catch {
            _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            throw error
        }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
