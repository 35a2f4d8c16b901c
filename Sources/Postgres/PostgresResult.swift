import CLibPQ

/// The rows of one statement's result, a collection of `PostgresRow`. Owns the `PGresult` and
/// clears it when released.
///
/// A result lives on the database thread that ran the statement: read it there and map the rows to
/// Sendable values before leaving the pool's closure.
public final class PostgresResult: RandomAccessCollection {
    @usableFromInline let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(PQntuples(handle)) }

    /// The number of rows an INSERT, UPDATE or DELETE touched.
    public var affectedRows: Int {
        guard let text = PQcmdTuples(handle), text.pointee != 0 else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    public subscript(index: Int) -> PostgresRow {
        PostgresRow(result: self, index: Int32(index))
    }

    /// The columns' positions by name, read once for a result of several rows: `PQfnumber`
    /// copies and case-folds the name and compares it with each column's, on every call; for a
    /// history page (50 messages of 25 columns) that was a tenth of the server's CPU (issue 32).
    /// For one row, making the table cost more than it saved (a user lookup: 7 µs). The first of
    /// two equal names wins, as with `PQfnumber`, which still answers for a name not found here
    /// (a quoted one).
    private lazy var positions: [String: Int32] = {
        var positions: [String: Int32] = [:]
        for column in 0..<PQnfields(handle) {
            guard let name = PQfname(handle, column) else { continue }
            let key = String(cString: name)
            if positions[key] == nil { positions[key] = column }
        }
        return positions
    }()

    @usableFromInline func columnIndex(_ name: String) throws -> Int32 {
        if PQntuples(handle) > 1, let index = positions[name] { return index }
        let index = PQfnumber(handle, name)
        guard index >= 0 else {
            throw PostgresError(kind: .decoding, message: "the result has no column \"\(name)\"")
        }
        return index
    }
}

/// One row of a `PostgresResult`, read by column name or position.
///
/// The decoding methods are inlinable so that each call is specialised for its column type in the
/// repositories: unspecialised, every column read looked up generic metadata at run time.
public struct PostgresRow {
    @usableFromInline let result: PostgresResult
    @usableFromInline let index: Int32

    /// The column's value; throws when it is NULL or does not parse as `T`.
    @inlinable public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try decodeIfPresent(column, as: type) else {
            throw PostgresError(kind: .decoding, message: "column \"\(column)\" is NULL")
        }
        return value
    }

    /// The column's value, or `nil` when it is NULL.
    @inlinable public func decodeIfPresent<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(at: Int(try result.columnIndex(column)), as: type)
    }

    @inlinable public func decode<T: PostgresDecodable>(at column: Int, as type: T.Type = T.self) throws -> T {
        guard let value = try decodeIfPresent(at: column, as: type) else {
            throw PostgresError(kind: .decoding, message: "column \(column) is NULL")
        }
        return value
    }

    @inlinable public func decodeIfPresent<T: PostgresDecodable>(at column: Int, as type: T.Type = T.self) throws -> T? {
        let column = Int32(column)
        guard column < PQnfields(result.handle) else {
            throw PostgresError(kind: .decoding, message: "the result has no column \(column)")
        }
        if PQgetisnull(result.handle, index, column) == 1 { return nil }
        guard let text = PQgetvalue(result.handle, index, column) else { return nil }
        return try T(postgresText: text, length: Int(PQgetlength(result.handle, index, column)))
    }
}
