import ParleyCore
import ParleyStore

/// Reads and transactions about one user that must exist: the user services' way into the store.
extension Store {
    /// Runs `body` if the user exists (404/400201 otherwise), on one connection.
    func readingUser<T: Sendable>(_ userID: String, _ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await read { repositories in
            guard try repositories.users.find(userID) != nil else { throw UserService.notFound(userID) }
            return try body(repositories)
        }
    }

    /// Runs `body` in a transaction with the user's row locked (404/400201 when there is none),
    /// so that concurrent changes to one user happen one after the other. With
    /// `lockingChannels`, the user's channels are locked first, in the project's lock order
    /// (channels before members before users), for changes that leave them.
    func changingUser<T: Sendable>(
        _ userID: String, lockingChannels: Bool = false, _ body: @escaping @Sendable (Repositories) throws -> T
    ) async throws -> T {
        try await transaction { repositories in
            if lockingChannels { try repositories.groupChannels.lock(try repositories.groupChannelMembers.channelURLs(of: userID)) }
            guard try repositories.users.findForUpdate(userID) != nil else { throw UserService.notFound(userID) }
            return try body(repositories)
        }
    }
}
