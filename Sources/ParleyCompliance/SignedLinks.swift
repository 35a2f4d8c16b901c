import ByteCoding
import Crypto
import Foundation
import ParleyCore

/// The download links of files the server makes for the admin (API.md §14.1–14.2: an access
/// archive, a data export), Sendbird's `files.url` and `files.expires_at`. A link carries its
/// expiry and an HMAC of its path and expiry, so it can be handed on without the API token; it
/// stops working when it expires, and the sweeper then removes the file.
public struct SignedLinks: Sendable {
    let key: SymmetricKey
    let baseURL: String
    /// How long a file can be downloaded after its job finished.
    public let lifetimeMillis: Int64

    public init(key: SymmetricKey, baseURL: String, lifetimeMillis: Int64) {
        self.key = key
        self.baseURL = baseURL
        self.lifetimeMillis = lifetimeMillis
    }

    /// `path` is the route's path with its captures in place (`/v3/privacy/gdpr/<id>/archive`).
    public func link(path: String, expiresAt: Int64) -> (url: String, expiresAt: Int64) {
        ("\(baseURL)\(path)?expires_at=\(expiresAt)&signature=\(signature(path, expiresAt))", expiresAt)
    }

    /// Whether a link's `expires_at` and `signature` are this server's for the path and still good.
    public func verify(path: String, expiresAt: Int64, signature given: String, now: Int64) -> Bool {
        guard now < expiresAt else { return false }
        let expected = Array(signature(path, expiresAt).utf8)
        let actual = Array(given.utf8)
        // Constant time in the signature's length, which is fixed.
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func signature(_ path: String, _ expiresAt: Int64) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Data("\(path)|\(expiresAt)".utf8), using: key)))
    }
}
