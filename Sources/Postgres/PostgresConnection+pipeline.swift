import CLibPQ

/// Pipelined statements (`ConnectionPool.run` batches concurrent lookups into one round trip).
extension PostgresConnection {
    /// Sends read-only statements in one pipeline (one round trip) and returns one outcome per
    /// statement, in order.
    ///
    /// The batch ends with a single sync point, so the server runs it as one implicit transaction
    /// and answers it with one write, instead of a transaction and a flush per statement. A
    /// statement that fails aborts the ones after it; being reads, those are simply sent again.
    ///
    /// Throws a connection error only when the connection failed before any statement was
    /// answered, so the server ran none of them; once answers have arrived, statements that got
    /// none report the connection error as their outcome.
    func pipeline(_ statements: [(sql: String, parameters: [any PostgresBindable])]) throws -> [Swift.Result<PostgresResult, PostgresError>]
    {
        try watched { try pipelineUnwatched(statements) }
    }

    private func pipelineUnwatched(_ statements: [(sql: String, parameters: [any PostgresBindable])]) throws
        -> [Swift.Result<PostgresResult, PostgresError>]
    {
        // A round left unfinished leaves results unread; a later round would read them as its own.
        guard isHealthy else {
            throw PostgresError(kind: .connection, message: "the connection was left unusable by an unfinished pipeline")
        }
        statementsSinceLease += 1
        // Statements new to this connection are prepared first, outside the pipeline.
        let names = try statements.map { try preparedName(for: $0.sql, parameterCount: $0.parameters.count) }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        var finished = false
        // Any way out but the end of the last round poisons the connection until it is reset.
        defer { if !finished || PQexitPipelineMode(handle) != 1 { isPoisoned = true } }
        var outcomes = [Swift.Result<PostgresResult, PostgresError>?](repeating: nil, count: statements.count)
        var pending = Array(statements.indices)
        while !pending.isEmpty {
            for index in pending {
                let sent = withCStrings(statements[index].parameters.map { $0.postgresText }) { values in
                    PQsendQueryPrepared(handle, names[index], Int32(values.count), values, nil, nil, 0)
                }
                guard sent == 1 else { return try settle(outcomes) }
            }
            guard PQpipelineSync(handle) == 1 else { return try settle(outcomes) }
            var aborted: [Int] = []
            for index in pending {
                guard let first = PQgetResult(handle) else { return try settle(outcomes) }
                if PQresultStatus(first) == PGRES_PIPELINE_ABORTED {
                    PQclear(first)
                    aborted.append(index)
                } else {
                    outcomes[index] = Swift.Result { try check(first) }.mapError {
                        $0 as? PostgresError ?? PostgresError(kind: .server, message: "\($0)")
                    }
                }
                // Each statement's results end with NULL.
                while let extra = PQgetResult(handle) { PQclear(extra) }
                if abandonRoundForTesting {
                    abandonRoundForTesting = false
                    return try settle(outcomes)
                }
            }
            guard let sync = PQgetResult(handle) else { return try settle(outcomes) }
            let status = PQresultStatus(sync)
            PQclear(sync)
            guard status == PGRES_PIPELINE_SYNC else { return try settle(outcomes) }
            // Only statements after a failure are aborted, so each round answers at least one;
            // should the server abort a whole round anyway, stop rather than loop.
            guard aborted.count < pending.count else {
                let failure = PostgresError(kind: .server, message: "the server aborted every statement of a pipeline")
                for index in aborted { outcomes[index] = .failure(failure) }
                break
            }
            pending = aborted
        }
        finished = true
        return try settle(outcomes)
    }

    /// The outcomes of a pipeline: statements left unanswered report the connection's error; when
    /// none was answered at all, the whole batch fails so that the caller may resend it.
    private func settle(_ outcomes: [Swift.Result<PostgresResult, PostgresError>?]) throws -> [Swift.Result<PostgresResult, PostgresError>]
    {
        let answered = outcomes.contains { outcome in
            guard let outcome else { return false }
            if case .failure(let error) = outcome, error.kind == .connection { return false }
            return true
        }
        // A connection killed while idle (server restart) reports its FATAL before anything ran.
        guard answered else { throw connectionError() }
        return outcomes.map { $0 ?? .failure(connectionError()) }
    }
}
