import ArgumentParser
import Foundation
import Logging
import ParleyContainer
import ParleyCore

/// Runs an admin command with the services the server builds (`Container.live`), as the admin
/// caller: the command goes through the same rules, transactions, events and webhooks as the
/// HTTP API, so running servers see its changes as they would an API request's. The container's
/// long-lived services (sockets, webhook dispatch) are not started.
enum AdminSession {
    static func run(_ body: (Container) async throws -> Void) async throws {
        var config = try loadConfig()
        // The command's own output is what matters; the server's info lines are noise here.
        config.logLevel = max(config.logLevel, .warning)
        let logger = makeLogger(config)
        defer { LogWriter.standardError.flush() }
        try await checkMigrations(config, logger: logger)
        let container = try Container.live(config: config, logger: logger)
        do {
            try await body(container)
        } catch {
            await container.shutdown()
            guard let refusal = error as? ParleyError else { throw error }
            FileHandle.standardError.write(Data("error: \(refusal.message) (\(refusal.code))\n".utf8))
            throw ExitCode(1)
        }
        await container.shutdown()
    }
}

/// How the admin commands print values.
enum AdminFormat {
    /// Milliseconds since 1970 as an ISO 8601 time (UTC).
    static func time(_ millis: Int64) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }

    /// Rows as aligned columns under a header.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The next page's token, when there is one.
    static func printNext(_ next: String) {
        if !next.isEmpty { print("next page: --next \(next)") }
    }
}
