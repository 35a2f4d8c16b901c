import Tracing

extension PostgresConnection {
    /// Runs `body` with every round trip to the server a span of `context`'s trace (issue 37):
    /// the store passes the context of a recorded database span, nil otherwise (no spans).
    public func tracingRoundTrips<T>(in context: InstrumentationContext?, _ body: () throws -> T) rethrows -> T {
        let outer = traceContext
        traceContext = context
        defer { traceContext = outer }
        return try body()
    }

    /// `work`, one round trip, with its start and end shown to the `RoundTripWatchdog`.
    func watched<T>(_ work: () throws -> T) rethrows -> T {
        watch.roundTripStarts()
        defer { watch.roundTripEnds() }
        return try work()
    }

    /// `work`, one round trip, as a span when a trace is set; named by the SQL's first word.
    func traced<T>(_ sql: String, statements: Int, _ work: () throws -> T) rethrows -> T {
        guard let traceContext else { return try watched(work) }
        let span = startSpan("db.round_trip", context: traceContext, ofKind: .client)
        defer { span.end() }
        span.attributes["db.operation.name"] = String(sql.prefix { !$0.isWhitespace }.prefix(16))
        span.attributes["db.operation.batch.size"] = statements
        do {
            return try watched(work)
        } catch {
            span.recordError(error)
            throw error
        }
    }
}
