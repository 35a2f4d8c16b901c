import CLibPQ

/// Fewer round trips inside a transaction.
///
/// Every round trip costs both sides a wake-up and this side a thread switch, and a transaction's
/// locks are held across all of them. Statements whose answers nobody waits for (BEGIN,
/// SAVEPOINT) ride along with the next statement, independent statements share a round trip,
/// and the transaction's last statement carries the COMMIT.
extension PostgresConnection {
    func connectionError() -> PostgresError {
        PostgresError(kind: .connection, message: Self.errorMessage(handle))
    }

    /// Sends `sql` (no parameters, an answer nobody needs) in the round trip of the next
    /// statement; its failure is that statement's failure.
    public func sendWithNext(_ sql: String) {
        deferredStatements.append(sql)
    }

    /// Opens a savepoint (sent with the next statement).
    public func savepoint(_ name: String) {
        sendWithNext("SAVEPOINT \(name)")
    }

    /// Keeps what was done since `savepoint(name)`; nothing to send when nothing was.
    public func releaseSavepoint(_ name: String) {
        if deferredStatements.last == "SAVEPOINT \(name)" {
            deferredStatements.removeLast()
            return
        }
        sendWithNext("RELEASE SAVEPOINT \(name)")
    }

    /// Undoes what was done since `savepoint(name)` (also after a failed statement, which leaves
    /// the transaction usable again) and closes the savepoint.
    public func rollBackToSavepoint(_ name: String) {
        if deferredStatements.last == "SAVEPOINT \(name)" {
            deferredStatements.removeLast()
            return
        }
        sendWithNext("ROLLBACK TO SAVEPOINT \(name)")
        sendWithNext("RELEASE SAVEPOINT \(name)")
    }

    /// Whether statements wait for the next round trip (a lent connection must have none).
    var hasDeferredStatements: Bool { !deferredStatements.isEmpty }

    /// Runs two independent queries in one round trip; the second starts once the first is done
    /// (it sees what the first waited for, such as a row lock).
    public func run<A, B>(_ first: Query<A>, _ second: Query<B>) throws -> (A, B) {
        let results = try roundTrip([(first.sql, first.parameters), (second.sql, second.parameters)])
        return (try first.decode(results[0]), try second.decode(results[1]))
    }

    /// Runs `body` inside BEGIN … COMMIT; any thrown error rolls the transaction back. BEGIN
    /// goes with the first statement, COMMIT with the last one `body` returns (nil: none).
    public func transactionWithFinalStatement<T>(_ body: (PostgresConnection) throws -> (T, last: Query<Void>?)) throws -> T {
        sendWithNext("BEGIN")
        do {
            let (value, last) = try body(self)
            // A commit is never sent twice: a connection lost on the way is not retried.
            statementsSinceLease += 1
            if let last {
                _ = try roundTrip([(last.sql, last.parameters), ("COMMIT", [])])
            } else if deferredStatements == ["BEGIN"] {
                deferredStatements.removeAll()  // nothing ran: nothing to commit
            } else {
                try execute("COMMIT")
            }
            return value
        } catch {
            deferredStatements.removeAll()
            if isHealthy && isInTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` inside BEGIN … COMMIT (see above).
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try transactionWithFinalStatement { connection in (try body(connection), last: nil) }
    }

    /// Sends the deferred statements and `statements` in one pipeline and returns the answers of
    /// `statements`, or throws the first failure (the ones after it were not run).
    ///
    /// Unlike `pipeline`, nothing is sent again: these are a transaction's statements, which a
    /// failure aborts. Throws a connection error when the connection failed before anything was
    /// answered, so that a lent connection's first round trip may be retried.
    func roundTrip(_ statements: [(sql: String, parameters: [any PostgresBindable])]) throws -> [PostgresResult] {
        try traced(statements.first?.sql ?? "", statements: statements.count + deferredStatements.count) {
            try roundTripUntraced(statements)
        }
    }

    private func roundTripUntraced(_ statements: [(sql: String, parameters: [any PostgresBindable])]) throws -> [PostgresResult] {
        guard isHealthy else { throw PostgresError(kind: .connection, message: "the connection was left unusable") }
        statementsSinceLease += 1
        let deferred = deferredStatements
        deferredStatements.removeAll()
        var all = deferred.map { (sql: $0, parameters: [any PostgresBindable]()) } + statements
        // Statements new to this connection are prepared first, outside the pipeline. A failed
        // statement leaves its transaction refusing everything (also a prepare: 25P02) until the
        // deferred ROLLBACK TO SAVEPOINT has run, so then, when something must be prepared, the
        // deferred statements go first, as a query of their own (before, a failing call of a
        // shared transaction on a fresh connection failed every call after it with 25P02).
        let undoesAFailure = deferred.contains { $0.hasPrefix("ROLLBACK TO SAVEPOINT") }
        if undoesAFailure && all.contains(where: { !isPrepared($0.sql) }) {
            try execute(deferred.joined(separator: "; "))
            all = statements
        }
        let names = try all.map { try preparedName(for: $0.sql, parameterCount: $0.parameters.count) }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        var finished = false
        // Any way out but reading the round to its end poisons the connection until it is reset.
        defer { if !finished || PQexitPipelineMode(handle) != 1 { isPoisoned = true } }
        for (statement, name) in zip(all, names) {
            let sent = withCStrings(statement.parameters.map { $0.postgresText }) { values in
                PQsendQueryPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
            }
            guard sent == 1 else { throw connectionError() }
        }
        guard PQpipelineSync(handle) == 1 else { throw connectionError() }
        var results: [PostgresResult] = []
        var failure: PostgresError?
        // Once the server has answered anything, the round may have changed something: a
        // connection lost after that is not retried by the pool.
        var serverAnswered = false
        func lost() -> PostgresError {
            if serverAnswered { statementsSinceLease += 1 }
            return failure.flatMap { $0.kind == .connection ? $0 : nil } ?? connectionError()
        }
        for _ in all {
            guard let first = PQgetResult(handle) else { throw lost() }
            if PQresultStatus(first) == PGRES_PIPELINE_ABORTED {
                PQclear(first)
                serverAnswered = true
            } else {
                do {
                    results.append(try check(first))
                    serverAnswered = true
                } catch let error as PostgresError {
                    if error.kind != .connection { serverAnswered = true }
                    failure = failure ?? error
                }
            }
            // Each statement's results end with NULL.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        guard let sync = PQgetResult(handle) else { throw lost() }
        let status = PQresultStatus(sync)
        PQclear(sync)
        guard status == PGRES_PIPELINE_SYNC else { throw lost() }
        finished = true
        if let failure { throw failure }
        return Array(results.suffix(statements.count))
    }
}
