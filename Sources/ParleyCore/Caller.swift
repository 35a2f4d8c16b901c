/// Who is making a request: the master token's holder, or one user through a session token.
public enum Caller: Sendable, Equatable {
    case admin
    case user(String)

    /// The caller of the request the task serves (set where the request is authenticated); nil
    /// in background work. The store keeps read-your-writes positions by it (issue 51.3).
    @TaskLocal public static var current: Caller?

    public var isAdmin: Bool { self == .admin }

    /// The user behind a session token; nil for the admin.
    public var userID: String? {
        if case .user(let id) = self { return id }
        return nil
    }

    /// Whether this caller may act as `userID`: the admin may act for anyone, a user only for themself.
    public func mayActAs(_ userID: String) -> Bool {
        switch self {
        case .admin: true
        case .user(let own): own == userID
        }
    }

    /// Throws 403/400108 unless this caller may act as `userID`.
    public func requireActingAs(_ userID: String) throws {
        guard mayActAs(userID) else { throw ParleyError.forbidden("You may not act for user \"\(userID)\".") }
    }

    /// Throws 403/400108 unless this is the admin.
    public func requireAdmin() throws {
        guard isAdmin else { throw ParleyError.forbidden("This needs the Api-Token.") }
    }
}
