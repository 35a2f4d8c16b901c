import Foundation

/// The replicated PostgreSQL of scripts/ha-cluster (issue 51): three nodes under Patroni, whose
/// primary the tests kill, stall and switch over. `scripts/test-ha` starts it and names it in
/// `PARLEY_HA_DATABASE_URL`; without that variable the suites that need it do not run.
enum HACluster {
    static var databaseURL: String? { ProcessInfo.processInfo.environment["PARLEY_HA_DATABASE_URL"] }

    /// Runs `scripts/ha-cluster` with `arguments` and waits for it; its output.
    @discardableResult
    static func run(_ arguments: String...) async throws -> String {
        try await run(arguments)
    }

    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        try await Task.detached {
            let process = Process()
            process.executableURL = TestServer.packageRoot.appendingPathComponent("scripts/ha-cluster")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw TestFailure("scripts/ha-cluster \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
            }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }.value
    }
}
