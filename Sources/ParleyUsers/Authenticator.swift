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

    public init(apiToken: String, store: Store, clock: Clock) {
        self.apiTokenDigest = SecretHashing.sha256Digest(apiToken)
        self.store = store
        self.clock = clock
    }

    /// The master token's holder: the admin; otherwise 401/400401.
    public func authenticate(apiToken: String) throws -> Authentication {
        // Digest equality is constant-time in swift-crypto.
        guard SecretHashing.sha256Digest(apiToken) == apiTokenDigest else {
            throw ParleyError.invalidApiToken
        }
        return Authentication(caller: .admin, fileKeyGeneration: nil)
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
