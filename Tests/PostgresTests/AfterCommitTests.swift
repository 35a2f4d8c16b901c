import Postgres
import Synchronization
import Testing

@testable import ParleyStore

/// Issue 11.4: what a transaction hands to `afterCommit` runs once the transaction has committed,
/// never for one that rolled back, and once for one that ran again after a deadlock.
@Suite struct AfterCommitTests {
    private func withStore(_ body: (Store, TestDatabase) async throws -> Void) async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        try database.connect().execute("CREATE TABLE notes (id int)")
        let pool = ConnectionPool(configuration: .init(conninfo: database.conninfo, size: 2), logger: TestDatabase.logger)
        try await body(Store(pool: pool), database)
        await pool.close()
    }

    /// How many notes another connection sees: only committed ones.
    private func committedNotes(_ database: TestDatabase) -> Int {
        (try? database.connect().query("SELECT count(*) AS n FROM notes")[0].decode("n", as: Int.self)) ?? -1
    }

    @Test func runsOnceTheTransactionHasCommitted() async throws {
        try await withStore { store, database in
            let seen = Mutex<[Int]>([])
            try await store.transaction { repositories in
                try repositories.connection.query("INSERT INTO notes VALUES (1)")
                repositories.afterCommit { seen.withLock { $0.append(committedNotes(database)) } }
            }
            #expect(seen.withLock { $0 } == [1])
        }
    }

    @Test func neverRunsForATransactionThatRolledBack() async throws {
        struct Refused: Error {}
        try await withStore { store, database in
            let ran = Mutex(false)
            await #expect(throws: Refused.self) {
                try await store.transaction { repositories in
                    try repositories.connection.query("INSERT INTO notes VALUES (1)")
                    repositories.afterCommit { ran.withLock { $0 = true } }
                    throw Refused()
                }
            }
            #expect(ran.withLock { $0 } == false)
            #expect(committedNotes(database) == 0)
        }
    }

    @Test func aTransactionRunAgainAfterADeadlockRunsOnlyTheWorkOfTheRunThatCommitted() async throws {
        try await withStore { store, database in
            let attempts = Mutex(0)
            let ran = Mutex<[Int]>([])
            try await store.transaction { repositories in
                let attempt = attempts.withLock {
                    $0 += 1
                    return $0
                }
                try repositories.connection.query("INSERT INTO notes VALUES ($1)", [attempt])
                repositories.afterCommit { ran.withLock { $0.append(attempt) } }
                if attempt == 1 { throw PostgresError(kind: .server, message: "deadlock detected", sqlState: "40P01") }
            }
            #expect(ran.withLock { $0 } == [2])
            #expect(committedNotes(database) == 1)
        }
    }
}
