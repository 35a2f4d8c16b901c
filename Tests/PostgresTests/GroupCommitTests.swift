import ParleyCore
import Postgres
import Synchronization
import Testing

@testable import ParleyStore

/// Issue 32.2: concurrent calls of `Store.sharedTransaction` share transactions (group commit),
/// each isolated in a savepoint, each answered only once the transaction holding it committed.
@Suite struct GroupCommitTests {
    private func withStore(
        configure: (inout ConnectionPool.Configuration) -> Void = { _ in }, _ body: (Store, TestDatabase) async throws -> Void
    ) async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        try database.connect().execute("CREATE TABLE notes (id int PRIMARY KEY)")
        var configuration = ConnectionPool.Configuration(conninfo: database.conninfo, size: 6)
        configure(&configuration)
        let pool = ConnectionPool(configuration: configuration, logger: TestDatabase.logger)
        try await body(Store(pool: pool), database)
        await pool.close()
    }

    private func committedNotes(_ database: TestDatabase) throws -> Set<Int> {
        Set(try database.connect().query("SELECT id FROM notes").map { try $0.decode("id", as: Int.self) })
    }

    private struct Refused: Error {}

    /// Shared state of concurrent calls (a Mutex cannot be captured by a child task's closure).
    private final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func with<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
    }

    private enum Answer: Sendable {
        case committed(id: Int, transaction: Int64, visibleAtOnce: Bool)
        case failed(id: Int, any Error)
    }

    /// 60 calls at once: every fifth fails in SQL, every seventh in Swift after writing; each
    /// fails alone, the others commit, several share a transaction, and each is visible to
    /// another connection the moment it is answered.
    @Test func concurrentCallsShareTransactionsAndEachFailsAlone() async throws {
        // Waits as long as it takes: the test starts beside a hundred suites on two cores.
        try await withStore(configure: { $0.acquireTimeout = .seconds(60) }) { store, database in
            let observer = Shared(try database.connect())
            let answers = await withTaskGroup(of: Answer.self) { group in
                for id in 1...60 {
                    group.addTask {
                        do {
                            let transaction = try await store.sharedTransaction(lockOrder: "c\(id % 7)") { repositories in
                                try repositories.connection.query("INSERT INTO notes VALUES ($1)", [id])
                                if id.isMultiple(of: 5) { try repositories.connection.query("SELECT 1 / 0") }
                                if id.isMultiple(of: 7) { throw Refused() }
                                return try repositories.connection.query("SELECT txid_current() AS t")[0].decode("t", as: Int64.self)
                            }
                            let visible = observer.with { connection in
                                (try? connection.query("SELECT 1 FROM notes WHERE id = $1", [id]).count) == 1
                            }
                            return .committed(id: id, transaction: transaction, visibleAtOnce: visible)
                        } catch {
                            return .failed(id: id, error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let expected = Set((1...60).filter { !$0.isMultiple(of: 5) && !$0.isMultiple(of: 7) })
            var committed: [Int: Int64] = [:]
            for answer in answers {
                switch answer {
                case .committed(let id, let transaction, let visibleAtOnce):
                    committed[id] = transaction
                    #expect(visibleAtOnce, "call \(id) was answered before its commit")
                case .failed(let id, let error):
                    #expect(!expected.contains(id), "call \(id) failed: \(error)")
                    if id.isMultiple(of: 5) { #expect((error as? PostgresError)?.sqlState == "22012") }
                    if !id.isMultiple(of: 5) { #expect(error is Refused) }
                }
            }
            #expect(Set(committed.keys) == expected)
            let notes = try committedNotes(database)
            #expect(notes == expected)
            // Batched: fewer transactions than calls.
            #expect(Set(committed.values).count < expected.count)
        }
    }

    /// A call that meets a deadlock is rolled back to its savepoint and run again; the calls
    /// batched with it commit once.
    @Test func aCallThatMeetsADeadlockRunsAgainAlone() async throws {
        try await withStore(configure: { $0.acquireTimeout = .seconds(60) }) { store, database in
            try database.connect().execute(
                """
                CREATE FUNCTION fail_first(attempt int) RETURNS void AS $$
                BEGIN IF attempt = 1 THEN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END IF; END $$ LANGUAGE plpgsql
                """)
            let attempts = Shared(0)
            let afterCommits = Shared<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await store.sharedTransaction(lockOrder: "a") { repositories in
                        let attempt = attempts.with {
                            $0 += 1
                            return $0
                        }
                        try repositories.connection.query("INSERT INTO notes VALUES ($1)", [attempt * 100])
                        repositories.afterCommit { afterCommits.with { $0.append(attempt * 100) } }
                        try repositories.connection.query("SELECT fail_first($1)", [attempt])
                    }
                }
                for id in 1...10 {
                    group.addTask {
                        try await store.sharedTransaction(lockOrder: "b") { repositories in
                            try repositories.connection.query("INSERT INTO notes VALUES ($1)", [id])
                            repositories.afterCommit { afterCommits.with { $0.append(id) } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(attempts.with { $0 } == 2)
            let notes = try committedNotes(database)
            #expect(notes == Set(1...10).union([200]))
            #expect(afterCommits.with { $0 }.sorted() == Array(1...10) + [200])
        }
    }

    /// While every runner waits for a lock, calls beyond the pool's waiting limit are refused at
    /// once and those that wait longer than its timeout fail: busy (503), never a hang; the
    /// calls that ran commit once the lock is free.
    @Test func callsBeyondTheWaitingBoundsAreRefusedBusy() async throws {
        try await withStore(configure: {
            $0.maxWaiting = 3
            $0.acquireTimeout = .milliseconds(300)
        }) { store, database in
            let holder = try database.connect()
            try holder.execute("BEGIN; LOCK TABLE notes IN EXCLUSIVE MODE")
            let started = ContinuousClock.now
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for id in 1...20 {
                    group.addTask {
                        do {
                            try await store.sharedTransaction(lockOrder: "n") { repositories in
                                _ = try repositories.connection.query("INSERT INTO notes VALUES ($1)", [id])
                            }
                            return (id, true)
                        } catch let error as ParleyError where error.code == ParleyError.unavailable.code {
                            return (id, false)
                        }
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(1))
                    try holder.execute("COMMIT")
                    return (0, false)
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }.filter { $0.key > 0 }
            }
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(outcomes.count == 20)
            let committed = Set(outcomes.filter(\.value).keys)
            #expect(!committed.isEmpty && committed.count < 20)
            let notes = try committedNotes(database)
            #expect(notes == committed)
        }
    }
}
