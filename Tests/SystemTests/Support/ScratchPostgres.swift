import Foundation

/// A PostgreSQL cluster of one test's own (`scripts/lib/scratch-postgres`), for a test that
/// restarts its database while a server uses it.
struct ScratchPostgres: Sendable {
    let directory: String
    let conninfo: String

    static func start() async throws -> ScratchPostgres {
        let directory = "/tmp/parley-scratch-\(UUID().uuidString.prefix(8).lowercased())"
        let port = Int.random(in: 20000...40000)
        try await run(["init", directory, String(port)])
        return ScratchPostgres(directory: directory, conninfo: "host=\(directory)/socket port=\(port) user=postgres dbname=postgres")
    }

    func restart() async throws { try await Self.run(["restart", directory]) }
    func stop() async throws { try await Self.run(["stop", directory]) }
    /// An immediate stop: the server's processes are killed as after a backend crash.
    func crash() async throws { try await Self.run(["crash", directory]) }
    func start() async throws { try await Self.run(["start", directory]) }
    func destroy() async { try? await Self.run(["destroy", directory]) }

    /// Runs the script on a Dispatch thread: the server under test shares this process's
    /// cooperative threads, and pg_ctl may take a second. No pipe for its output: the server it
    /// starts inherits the script's descriptors and would hold a pipe open for ever.
    private static func run(_ arguments: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                do {
                    let script = TestServer.packageRoot.appendingPathComponent("scripts/lib/scratch-postgres").path
                    guard try runProgram(script, arguments).termination == .exited(0) else {
                        throw TestFailure("scratch-postgres \(arguments) failed")
                    }
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
