import Testing

@testable import Postgres

/// Savepoints sent with the next statement (`PostgresConnection.savepoint` and friends).
@Suite struct SavepointTests {
    /// A failed statement aborts the transaction until its ROLLBACK TO SAVEPOINT has run; a
    /// statement new to the connection (prepared before the round) must wait for that. On a fresh
    /// connection every statement after the failure is new: before the fix each failed with 25P02,
    /// as every call after a failing one of a shared transaction did under load (issue 32).
    @Test func aFailedStatementUndoneToItsSavepointLeavesTheTransactionUsableOnAFreshConnection() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        try database.connect().execute("CREATE TABLE t (id int PRIMARY KEY)")
        let connection = try database.connect()
        let count = try connection.transaction { connection -> Int in
            connection.savepoint("call")
            try connection.query("INSERT INTO t VALUES ($1)", [1])
            connection.releaseSavepoint("call")
            connection.savepoint("call")
            #expect(throws: PostgresError.self) { try connection.query("SELECT 1 / $1::int", [0]) }
            connection.rollBackToSavepoint("call")
            connection.savepoint("call")
            try connection.query("INSERT INTO t VALUES ($1), ($2)", [2, 3])
            connection.releaseSavepoint("call")
            return try connection.query("SELECT count(*) AS n FROM t")[0].decode("n", as: Int.self)
        }
        #expect(count == 3)
        #expect(try connection.query("SELECT count(*) AS n FROM t")[0].decode("n", as: Int.self) == 3)
    }
}
