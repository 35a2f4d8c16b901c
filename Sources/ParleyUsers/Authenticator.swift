import Crypto
import Foundation
import ParleyCore
import ParleyStore

/// Who a request's credentials belong to, and for a user the generation of their file auth
/// keys, which the keys in the response's file URLs must carry.
public struct Authentication: Sendable {
    public let caller: Caller
    public let fileKeyGeneration: Int64?
    /// When a session token stops working (the event stream closes then).
    public var sessionExpiresAt: Int64? = nil
}

/// Turns the credentials of a request into a `Caller` (API.md §1.7).
///
/// A session token is `selector ‖ secret` (24 + 48 hex characters): the selector finds the stored
/// row, and the secret's SHA-256 is compared with the stored hash in constant time, so neither a
/// database lookup nor a comparison reveals how much of a guessed token was right.
public struct Authenticator: Sendable {
    static let selectorLength = 24
    static let secretLength = 48

    private let apiTokenDigest: SHA256.Digest
    private let store: Store
    private let clock: Clock
    /// Where a signed-in user's activity is counted (API.md §14.5: daily active users).
    private let activity: ActivityLog?

    public init(apiToken: String, store: Store, clock: Clock, activity: ActivityLog? = nil) {
        self.apiTokenDigest = SecretHashing.sha256Digest(apiToken)
        self.store = store
        self.clock = clock
        self.activity = activity
    }

    /// The admin: the master token (the configuration's, compared in memory) or a secondary token
    /// (API.md §14.7, looked up on every request, so a revoked one stops at once on every
    /// instance); otherwise 401/400401.
    public func authenticate(apiToken: String) async throws -> Authentication {
        // Digest equality is constant-time in swift-crypto.
        if isMasterToken(apiToken) { return Authentication(caller: .admin, fileKeyGeneration: nil) }
        guard let (selector, secret) = SecondaryApiToken.parts(of: apiToken),
            let stored = try await store.fetch(ApplicationSecurityRepository.tokenHash(selector: selector)),
            SecretHashing.constantTimeEquals(stored, SecretHashing.sha256(secret))
        else { throw ParleyError.invalidApiToken }
        return Authentication(caller: .admin, fileKeyGeneration: nil)
    }

    /// Whether `token` is the master API token (only it makes secondary tokens).
    public func isMasterToken(_ token: String) -> Bool {
        SecretHashing.sha256Digest(token) == apiTokenDigest
    }

    /// The owner of a live session token; 401/400302 when unknown or expired, 401/400300 when the
    /// user is deactivated.
    public func authenticate(sessionToken: String) async throws -> Authentication {
        guard sessionToken.utf8.count == Self.selectorLength + Self.secretLength,
            sessionToken.utf8.allSatisfy({ $0 < 128 })
        else { throw ParleyError.invalidSessionToken }
        let selector = String(sessionToken.prefix(Self.selectorLength))
        let secretHash = SecretHashing.sha256(sessionToken.dropFirst(Self.selectorLength))
        guard let stored = try await store.fetch(SessionTokenRepository.lookup(selector: selector)),
            SecretHashing.constantTimeEquals(stored.secretHash, secretHash),
            stored.expiresAt > clock.nowMillis
        else { throw ParleyError.invalidSessionToken }
        guard stored.userIsActive else { throw ParleyError.deactivatedUser }
        guard !stored.revoked else { throw ParleyError.invalidSessionToken }
        activity?.record(stored.userID, now: clock.nowMillis)
        return Authentication(
            caller: .user(stored.userID), fileKeyGeneration: stored.fileKeyGeneration, sessionExpiresAt: stored.expiresAt)
    }

    /// Creates a token for `userID` inside the caller's transaction.
    static func issue(for userID: String, expiresAt: Int64, now: Int64, in repositories: Repositories) throws -> IssuedSessionToken {
        let selector = SecretHashing.randomHex(bytes: selectorLength / 2)
        let secret = SecretHashing.randomHex(bytes: secretLength / 2)
        try repositories.sessionTokens.deleteExpired(userID: userID, now: now)
        try repositories.sessionTokens.insert(
            selector: selector, userID: userID, secretHash: SecretHashing.sha256(secret), expiresAt: expiresAt, createdAt: now
        )
        return IssuedSessionToken(userID: userID, token: selector + secret, expiresAt: expiresAt)
    }
}
