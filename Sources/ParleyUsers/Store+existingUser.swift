import ParleyCore
import ParleyStore

extension Store {
    /// Runs `body` if the user exists (404/400201 otherwise), on one connection.
    func readingUser<T: Sendable>(_ userID: String, _ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await read { repositories in
            guard try repositories.users.find(userID) != nil else { throw UserService.notFound(userID) }
            return try body(repositories)
        }
    }

    /// Runs `body` in a transaction with the user's row locked (404/400201 when there is none),
    /// so that concurrent changes to one user happen one after the other.
    func changingUser<T: Sendable>(_ userID: String, _ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await transaction { repositories in
            guard try repositories.users.findForUpdate(userID) != nil else { throw UserService.notFound(userID) }
            return try body(repositories)
        }
    }
}
