import ParleyCore
import ParleyStore

/// Device tokens (API.md §12.1): a user (or the admin for them) registers, lists and removes
/// the tokens their devices got from APNs, FCM, HMS or a browser's Push API; the admin finds a
/// token's owner. A token has one owner: registering it moves it.
public struct PushTokenService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    /// Where Web Push endpoints may be (`PushProviderSettings.webPushServices`).
    let webPushServices: WebPushServices

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, webPushServices: WebPushServices) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.webPushServices = webPushServices
    }

    /// Registers `token` for `userID`; returns the user. A device token moves to whoever
    /// registers it (a device changes hands); a Web Push endpoint moves only with the keys it
    /// has (the same browser's subscription, signed in as someone else), and only its owner
    /// gives it new keys: otherwise anyone who learned an endpoint could take it over and have
    /// its owner's pushes encrypted for keys their browser does not hold (403/400108).
    public func register(_ caller: Caller, _ userID: String, _ token: PushToken) async throws -> User {
        try caller.requireActingAs(userID)
        if token.type == .web, !webPushServices.admits(token.token) {
            throw ParleyError.invalidValue("web_push_subscription.endpoint", "is not at a push service this server sends to")
        }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let user = try Self.requireUser(userID, repositories)
            guard try repositories.pushTokens.register(token, userID: userID, keep: PushTokens.maxPerType, now: now) else {
                throw ParleyError.forbidden("This Web Push endpoint is registered with other keys; only its owner changes them.")
            }
            return user
        }
    }

    /// A page of the user's tokens of `type`, newest first.
    public func list(_ caller: Caller, _ userID: String, _ type: PushTokenType, limit: Int, pageToken: String?) async throws -> (
        user: User, tokens: Page<String>
    ) {
        try caller.requireActingAs(userID)
        let scope = "push|\(userID)|\(type.rawValue)"
        let after = try pageToken.map { token -> (createdAt: Int64, token: String) in
            let position = try pageTokens.decode(token, scope: scope)
            guard position.count == 2, let createdAt = Int64(position[0]) else { throw ParleyError.invalidPageToken }
            return (createdAt, position[1])
        }
        let (user, rows) = try await store.read { repositories in
            (
                try Self.requireUser(userID, repositories),
                try repositories.pushTokens.tokens(of: userID, type: type, after: after, limit: limit + 1)
            )
        }
        let page = rows.prefix(limit)
        let shown = Page(
            items: page.map(\.token), positions: page.map { ["\($0.createdAt)", $0.token] }, more: rows.count > limit, tokens: pageTokens,
            scope: scope)
        return (user, shown)
    }

    /// Removes one of the user's tokens (nothing when it is not theirs: it may have moved on).
    public func remove(_ caller: Caller, _ userID: String, _ type: PushTokenType, _ token: String) async throws -> User {
        try caller.requireActingAs(userID)
        return try await store.transaction { repositories in
            let user = try Self.requireUser(userID, repositories)
            _ = try repositories.pushTokens.remove(type, token, userID: userID)
            return user
        }
    }

    /// Removes every token of the user (signing out everywhere); returns the user and the tokens.
    public func removeAll(_ caller: Caller, _ userID: String) async throws -> (user: User, tokens: [String]) {
        try caller.requireActingAs(userID)
        return try await store.transaction { repositories in
            (try Self.requireUser(userID, repositories), try repositories.pushTokens.removeAll(userID: userID))
        }
    }

    /// Who owns the token (the admin's question); nil when nobody does.
    public func owner(_ caller: Caller, _ type: PushTokenType, _ token: String) async throws -> String? {
        try caller.requireAdmin()
        return try await store.read { try $0.pushTokens.owner(type, token) }
    }

    /// Takes the token from its owner; 404 when nobody has it.
    public func removeFromOwner(_ caller: Caller, _ type: PushTokenType, _ token: String) async throws -> String {
        try caller.requireAdmin()
        guard let owner = try await store.transaction({ try $0.pushTokens.removeFromOwner(type, token) }) else {
            throw ParleyError.notFound("No user has this \(type.rawValue) token.")
        }
        return owner
    }

    private static func requireUser(_ userID: String, _ repositories: Repositories) throws -> User {
        guard let user = try repositories.users.find(userID) else { throw ParleyError.notFound("User \"\(userID)\" not found.") }
        return user
    }
}
