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
        /// No connection (or pipeline slot) became free in time; nothing was sent to the server.
        case busy
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
    /// Serialization failures and deadlocks: the transaction was rolled back and may simply be
    /// run again from the start.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// The database could not serve the statement now, through no fault of the request: lost or
    /// busy connections, a statement or lock wait over its timeout, a transaction that still met
    /// a deadlock after its retries, a server short of resources.
    public var isUnavailability: Bool {
        switch kind {
        case .connection, .busy: return true
        case .server:
            guard let sqlState else { return false }
            return isTransient || sqlState == "57014" || sqlState == "55P03" || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P")
        case .decoding, .usage: return false
        }
    }

    public var description: String {
        var text = "PostgresError(\(kind)"
        if let sqlState { text += ", SQLSTATE \(sqlState)" }
        if let constraint { text += ", constraint \(constraint)" }
        return text + "): \(message)"
    }
}
