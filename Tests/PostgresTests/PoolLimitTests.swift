import Foundation
import Synchronization
import Testing

@testable import Postgres

/// Issue 10.14 and 10.15: a pipeline round that went wrong is never read as another's, and no
/// job waits without bound, for a connection, a lock or a statement.
@Suite struct PoolLimitTests {
    private func pool(_ database: TestDatabase, size: Int = 1, _ adjust: (inout ConnectionPool.Configuration) -> Void = { _ in })
        -> ConnectionPool
    {
        var configuration = ConnectionPool.Configuration(conninfo: database.conninfo, size: size)
        // `occupy` keeps its job waiting on a lock for as long as the test needs: on a loaded
        // machine (CI runs the suites in parallel on two cores) that can outlast the default.
        configuration.session.lockTimeout = nil
        adjust(&configuration)
        return ConnectionPool(configuration: configuration, logger: TestDatabase.logger)
    }

    /// Takes the pool's only connection and keeps it until `release` is called: the job waits for
    /// an advisory lock the test holds on a connection of its own.
    private func occupy(_ pool: ConnectionPool, _ database: TestDatabase) async throws -> (
        holder: Task<Void, any Error>, release: @Sendable () throws -> Void
    ) {
        let gate = try database.connect()
        try gate.query("SELECT pg_advisory_lock(42)")
        let started = Flag()
        let holder = Task {
            try await pool.withConnection { connection in
                started.raise()
                _ = try connection.query("SELECT pg_advisory_lock(42)")
                _ = try connection.query("SELECT pg_advisory_unlock(42)")
            }
        }
        while !started.isRaised { try await Task.sleep(for: .milliseconds(10)) }
        return (holder, { _ = try gate.query("SELECT pg_advisory_unlock(42)") })
    }

    @Test func aJobThatGetsNoConnectionInTimeFailsBusy() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = pool(database) { $0.acquireTimeout = .milliseconds(300) }
        let (holder, release) = try await occupy(pool, database)
        await #expect { try await pool.withConnection { _ in 1 } } throws: { ($0 as? PostgresError)?.kind == .busy }
        await #expect { try await pool.run(PipelineTests.square(3)) } throws: { ($0 as? PostgresError)?.kind == .busy }
        try release()
        try await holder.value
        #expect(try await pool.run(PipelineTests.square(3)) == 9, "served again once the connection is free")
        await pool.close()
    }

    @Test func waitersBeyondTheLimitAreRefusedAtOnceAndACancelledOneLeaves() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = pool(database) {
            $0.maxWaiting = 1
            $0.acquireTimeout = .seconds(60)
        }
        let (holder, release) = try await occupy(pool, database)
        let waiter = Task { try await pool.withConnection { _ in 1 } }
        while pool.state.withLock({ $0.waiters.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        // Refused at once, not after the minute of the acquire timeout.
        await #expect { try await pool.withConnection { _ in 2 } } throws: { ($0 as? PostgresError)?.kind == .busy }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(pool.state.withLock { $0.waiters.isEmpty }, "the cancelled waiter left the queue")
        let next = Task { try await pool.withConnection { _ in 3 } }
        try release()
        try await holder.value
        #expect(try await next.value == 3, "its place was free for another")
        await pool.close()
    }

    @Test func statementsAndLockWaitsHaveTimeouts() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = pool(database, size: 2) {
            $0.session.statementTimeout = .milliseconds(300)
            $0.session.lockTimeout = .milliseconds(200)
        }
        await #expect { try await pool.withConnection { _ = try $0.query("SELECT pg_sleep(5)") } } throws: {
            ($0 as? PostgresError)?.sqlState == "57014" && ($0 as? PostgresError)?.isUnavailability == true
        }
        try await pool.withConnection { _ = try $0.execute("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)") }
        let locker = try database.connect()
        try locker.execute("BEGIN; SELECT * FROM t FOR UPDATE")
        await #expect { try await pool.withTransaction { _ = try $0.query("UPDATE t SET id = 2") } } throws: {
            ($0 as? PostgresError)?.sqlState == "55P03" && ($0 as? PostgresError)?.isUnavailability == true
        }
        try locker.execute("ROLLBACK")
        await pool.close()
    }

    @Test func thePreparedStatementCacheIsBounded() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        var settings = SessionSettings()
        settings.maxPreparedStatements = 3
        let connection = try PostgresConnection(conninfo: database.conninfo, logger: TestDatabase.logger, settings: settings)
        for round in 0..<2 {
            for k in 0..<10 {
                let value = try connection.query("SELECT $1::int + \(k) AS v", [round]).first?.decode("v", as: Int.self)
                #expect(value == round + k)
            }
        }
        #expect(connection.preparedStatementCount == 3)
        let onServer = try connection.query("SELECT count(*) AS n FROM pg_prepared_statements")[0].decode("n", as: Int.self)
        #expect(onServer == 3)
    }

    @Test func anAbandonedPipelineRoundIsNeverReadAsTheNextOne() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try database.connect()
        let statements = { (values: [Int]) in values.map { (sql: PipelineTests.square($0).sql, parameters: [$0] as [any PostgresBindable]) }
        }
        connection.abandonRoundForTesting = true
        let outcomes = try connection.pipeline(statements([1, 2, 3]))
        #expect((try? outcomes[0].get()[0].decode("v", as: Int.self)) == 1)
        #expect(!connection.isHealthy, "answers of the round are still unread")
        #expect(throws: PostgresError.self) { try connection.pipeline(statements([4, 5])) }
        try connection.reconnect()
        let next = try connection.pipeline(statements([4, 5]))
        #expect(next.map { try? $0.get()[0].decode("v", as: Int.self) } == [16, 25])
    }

    @Test func killingBackendsMidPipelineNeverMixesUpAnswers() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = pool(database, size: 4)
        let stop = Atomic<Bool>(false)
        let killer = Task.detached {
            let admin = try PostgresConnection(conninfo: TestDatabase.adminConninfo, logger: TestDatabase.logger)
            var kills = 0
            while !stop.load(ordering: .relaxed) {
                kills += try admin.query(
                    "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                    [database.name]
                )[0].decode("n", as: Int.self)
                usleep(15_000)
            }
            return kills
        }
        let (answers, wrong) = await withTaskGroup(of: (Int, Int).self) { group in
            for task in 0..<24 {
                group.addTask {
                    var (answered, wrong) = (0, 0)
                    for step in 0..<150 {
                        let n = 1 + task * 1000 + step
                        guard let value = try? await pool.run(PipelineTests.square(n)) else { continue }
                        answered += 1
                        if value != n * n { wrong += 1 }
                    }
                    return (answered, wrong)
                }
            }
            return await group.reduce(into: (0, 0)) {
                $0.0 += $1.0
                $0.1 += $1.1
            }
        }
        stop.store(true, ordering: .relaxed)
        let kills = try await killer.value
        #expect(kills > 0)
        #expect(answers > 1000, "most statements are answered despite the kills")
        #expect(wrong == 0)
        await pool.close()
    }
}
