/// One parameterised statement together with the way its result is read.
///
/// A query can run on a connection the caller holds (inside a transaction), or through
/// `ConnectionPool.run`, which pipelines it with the queries of other requests.
public struct Query<Result: Sendable>: Sendable {
    public let sql: String
    public let parameters: [any PostgresBindable]
    public let decode: @Sendable (PostgresResult) throws -> Result

    public init(_ sql: String, _ parameters: [any PostgresBindable] = [], decode: @escaping @Sendable (PostgresResult) throws -> Result) {
        self.sql = sql
        self.parameters = parameters
        self.decode = decode
    }
}

extension PostgresConnection {
    /// Runs `query` on this connection and reads its result.
    public func run<Result>(_ query: Query<Result>) throws -> Result {
        try query.decode(self.query(query.sql, query.parameters))
    }
}
