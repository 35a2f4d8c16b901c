/// An error from the database layer, carrying PostgreSQL's SQLSTATE when the server sent one.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The connection could not be made or was lost; the statement may not have run.
        case connection
        /// The server refused or failed the statement; `sqlState` says why.
        case server
        /// A column value could not be read as the requested Swift type.
        case decoding
        /// The pool is closed or a migration is inconsistent.
        case usage
    }

    public let kind: Kind
    public let sqlState: String?
    public let message: String
    /// The constraint that failed (for 23xxx errors), when the server names one.
    public let constraint: String?

    public init(kind: Kind, message: String, sqlState: String? = nil, constraint: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.constraint = constraint
    }

    public var isUniqueViolation: Bool { sqlState == "23505" }
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// Serialization failures and deadlocks: the transaction may simply be retried.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        var text = "PostgresError(\(kind)"
        if let sqlState { text += ", SQLSTATE \(sqlState)" }
        if let constraint { text += ", constraint \(constraint)" }
        return text + "): \(message)"
    }
}
