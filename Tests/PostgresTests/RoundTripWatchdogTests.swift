import Foundation
import Testing

@testable import Postgres

/// Issue 51.1: a server that stops answering is given up within a bound, one that is only slow
/// is not. A stalled server is one backend stopped with SIGSTOP (the whole primary frozen is
/// FailoverTests', on a cluster of its own). scripts/test runs this suite alone: while the backend
/// is stopped, every CREATE or DROP DATABASE of the cluster waits for it (so its tests run one
/// after another).
@Suite(.serialized, .timeLimit(.minutes(1))) struct RoundTripWatchdogTests {
    @Test func aRoundTripPastItsHardDeadlineIsCut() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        var settings = SessionSettings()
        settings.statementTimeout = .seconds(1)  // the hard deadline: 6 s
        let connection = try PostgresConnection(conninfo: database.conninfo, logger: TestDatabase.logger, settings: settings)
        let backend = Int32(try connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self))
        #expect(kill(backend, SIGSTOP) == 0, "the tests run as root or as the cluster's owner")
        defer {
            kill(backend, SIGCONT)
            kill(backend, SIGTERM)
        }
        // Timed on the query's own thread: the test's task may resume later (other suites' blocking
        // calls can hold the cooperative threads).
        let (failure, waited) = try await Self.onAThread { () -> (PostgresError?, Duration) in
            let started = ContinuousClock.now
            do {
                _ = try connection.query("SELECT 1")
                return (nil, ContinuousClock.now - started)
            } catch let error as PostgresError {
                return (error, ContinuousClock.now - started)
            }
        }.get()
        let error = try #require(failure, "the round trip to a stopped backend answered")
        #expect(error.kind == .connection)
        #expect(waited > .seconds(5) && waited < .seconds(10), "cut after \(waited)")
        #expect(!connection.isHealthy)
    }

    @Test func aSlowStatementOnAnAnsweringServerIsLeftAlone() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        var settings = SessionSettings()
        settings.statementTimeout = nil
        // Only a server with an alternative is probed: a second host (a closed port) is named.
        let plain = try database.connect()
        let server = try #require(plain.watch.snapshot.server)
        let conninfo = database.conninfo + " host=\(server.host),127.0.0.1 port=\(server.port),1"
        let connection = try PostgresConnection(conninfo: conninfo, logger: TestDatabase.logger, settings: settings)
        #expect(connection.watch.hasAlternatives && connection.watch.snapshot.server == server)
        // Past `suspectAfter`: the server is probed, answers, and the statement runs to its end.
        let outcome = await Self.onAThread { _ = try connection.query("SELECT pg_sleep(2.5)") }
        if case .failure(let error) = outcome { Issue.record("a slow statement was cut: \(error)") }
        #expect(connection.isHealthy)
    }

    @Test func aServerThatRefusesIsGoneOneThatAnswersIsNot() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try database.connect()
        let server = try #require(connection.watch.snapshot.server)
        #expect(RoundTripWatchdog.goneReason(server, conninfo: database.conninfo) == nil)
        let closedPort = RoundTripWatch.Server(host: "127.0.0.1", port: "1")
        let reason = try #require(RoundTripWatchdog.goneReason(closedPort, conninfo: database.conninfo))
        #expect(reason.contains("refused"), "\(reason)")
    }

    /// Runs blocking libpq work on a thread of its own, off the cooperative pool.
    static func onAThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { try work() }) }.start()
        }
    }
}
