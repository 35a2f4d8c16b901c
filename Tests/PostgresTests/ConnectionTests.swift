import Foundation
import Testing

@testable import Postgres

@Suite struct ConnectionTests {
    @Test func parametersTravelApartFromTheSQL() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE notes (id bigint PRIMARY KEY, body text, tags text[], flag boolean, raw bytea)")
        let hostile = "x'); DROP TABLE notes; --"
        let tags = ["a,b", "quote\"d", "back\\slash", ""]
        let raw = Data([0, 1, 254, 255])
        try connection.query("INSERT INTO notes VALUES ($1, $2, $3, $4, $5)", [Int64(1) << 40, hostile, tags, true, raw])
        let row = try #require(try connection.query("SELECT * FROM notes").first)
        #expect(try row.decode("id", as: Int64.self) == Int64(1) << 40)
        #expect(try row.decode("body", as: String.self) == hostile)
        #expect(try row.decode("flag", as: Bool.self))
        #expect(try row.decode("raw", as: Data.self) == raw)
        let unnested = try connection.query("SELECT unnest(tags) AS tag FROM notes")
        #expect(try unnested.map { try $0.decode("tag", as: String.self) } == tags)
        let nothing: String? = nil
        #expect(try connection.query("SELECT $1::text AS v", [nothing])[0].decodeIfPresent("v", as: String.self) == nil)
    }

    @Test func serverErrorsCarrySQLSTATEAndConstraint() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE things (id int CONSTRAINT things_pk PRIMARY KEY)")
        try connection.query("INSERT INTO things VALUES ($1)", [1])
        do {
            try connection.query("INSERT INTO things VALUES ($1)", [1])
            Issue.record("a duplicate key was accepted")
        } catch let error as PostgresError {
            #expect(error.kind == .server)
            #expect(error.sqlState == "23505")
            #expect(error.isUniqueViolation)
            #expect(error.constraint == "things_pk")
        }
        #expect(throws: PostgresError.self) { try connection.query("SELECT * FROM nowhere") }
        // The connection stays usable after an error.
        #expect(try connection.query("SELECT count(*) AS n FROM things")[0].decode("n", as: Int.self) == 1)
    }

    @Test func transactionRollsBackOnError() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (id int PRIMARY KEY)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.transaction { connection in
                try connection.query("INSERT INTO t VALUES ($1)", [1])
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT count(*) AS n FROM t")[0].decode("n", as: Int.self) == 0)
    }

    @Test func badConnectionStringFailsWithConnectionKind() throws {
        do {
            _ = try PostgresConnection(conninfo: "host=/nonexistent-dir port=1 dbname=x connect_timeout=2", logger: TestDatabase.logger)
            Issue.record("connected to nothing")
        } catch let error as PostgresError {
            #expect(error.kind == .connection)
        }
    }
}

@Suite struct ConnectionPoolTests {
    @Test func poolNeverOpensMoreThanItsSize() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        var configuration = ConnectionPool.Configuration(conninfo: database.conninfo, size: 3)
        // Thirty callers queue for three connections on a machine busy with the whole suite: the
        // test is about how many connections open, not how fast the queue moves.
        configuration.acquireTimeout = .seconds(60)
        let pool = ConnectionPool(configuration: configuration, logger: TestDatabase.logger)
        let pids = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await pool.withConnection { connection in
                        try connection.query("SELECT pg_sleep(0.01)")
                        return try connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
                    }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(pids.count <= 3)
        await pool.close()
    }

    @Test func poolReconnectsAfterTheServerDropsItsConnections() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 1), logger: TestDatabase.logger)
        let before = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self) }
        // What a server restart does to an idle connection: the backend goes away under it.
        let admin = try PostgresConnection(conninfo: TestDatabase.adminConninfo, logger: TestDatabase.logger)
        try admin.query("SELECT pg_terminate_backend($1)", [before])
        try await Task.sleep(for: .milliseconds(100))
        let after = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self) }
        #expect(after != before)
        await pool.close()
    }

    @Test func transactionsCommitOrRollBackAsAWhole() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 2), logger: TestDatabase.logger)
        try await pool.withConnection { _ = try $0.execute("CREATE TABLE t (id int PRIMARY KEY)") }
        await #expect(throws: PostgresError.self) {
            try await pool.withTransaction { connection in
                try connection.query("INSERT INTO t VALUES ($1)", [1])
                _ = try connection.query("INSERT INTO t VALUES ($1)", [1])
            }
        }
        try await pool.withTransaction { _ = try $0.query("INSERT INTO t VALUES ($1)", [2]) }
        let ids = try await pool.withConnection { try $0.query("SELECT id FROM t").map { try $0.decode("id", as: Int.self) } }
        #expect(ids == [2])
        await pool.close()
    }

    @Test func closedPoolRefusesWork() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 1), logger: TestDatabase.logger)
        await pool.close()
        await #expect(throws: (any Error).self) { try await pool.withConnection { _ in 1 } }
    }
}

@Suite struct PipelineTests {
    static func square(_ n: Int) -> Query<Int> {
        // Division by zero for n == 0 makes that one statement fail.
        Query("SELECT $1::int * $1::int / (CASE WHEN $1::int = 0 THEN 0 ELSE 1 END) AS v", [n]) { try $0[0].decode("v") }
    }

    @Test func concurrentStatementsEachGetTheirOwnAnswer() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 2), logger: TestDatabase.logger)
        let outcomes = await withTaskGroup(of: (Int, Int?).self) { group in
            for n in 0..<300 {
                group.addTask { (n, try? await pool.run(Self.square(n % 50))) }
            }
            return await group.reduce(into: [Int: Int?]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 300)
        for (n, value) in outcomes {
            // A failing statement (n % 50 == 0) fails alone; its neighbours in the batch succeed.
            #expect(value == (n % 50 == 0 ? nil : (n % 50) * (n % 50)))
        }
        await pool.close()
    }

    @Test func aFailureInsideABatchLeavesTheOtherStatementsTheirAnswers() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let connection = try PostgresConnection(conninfo: database.conninfo, logger: TestDatabase.logger)
        // One batch, one sync point: the statements after each failure are aborted by the server
        // and must be sent again, each still getting its own answer.
        let inputs = [1, 2, 0, 3, 4, 0, 0, 5]
        let outcomes = try connection.pipeline(inputs.map { n in (sql: Self.square(n).sql, parameters: [n] as [any PostgresBindable]) })
        #expect(outcomes.count == inputs.count)
        for (n, outcome) in zip(inputs, outcomes) {
            switch outcome {
            case .success(let result): #expect(n != 0 && (try? result[0].decode("v", as: Int.self)) == n * n)
            case .failure(let error): #expect(n == 0 && error.sqlState == "22012")
            }
        }
        // The connection is usable afterwards, outside pipeline mode.
        #expect(try connection.run(Self.square(6)) == 36)
    }

    @Test func failedStatementReportsItsSQLSTATE() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 1), logger: TestDatabase.logger)
        do {
            _ = try await pool.run(Self.square(0))
            Issue.record("division by zero succeeded")
        } catch let error as PostgresError {
            #expect(error.sqlState == "22012")
        }
        #expect(try await pool.run(Self.square(3)) == 9)
        await pool.close()
    }

    @Test func pipelineReconnectsAfterTheServerDropsTheConnection() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 1), logger: TestDatabase.logger)
        let pid = Query("SELECT pg_backend_pid() AS pid") { try $0[0].decode("pid", as: Int.self) }
        let before = try await pool.run(pid)
        let admin = try PostgresConnection(conninfo: TestDatabase.adminConninfo, logger: TestDatabase.logger)
        try admin.query("SELECT pg_terminate_backend($1)", [before])
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await pool.run(pid) != before)
        await pool.close()
    }

    @Test func closedPoolFailsPipelinedStatements() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 1), logger: TestDatabase.logger)
        await pool.close()
        await #expect(throws: PostgresError.self) { try await pool.run(Self.square(2)) }
    }
}
