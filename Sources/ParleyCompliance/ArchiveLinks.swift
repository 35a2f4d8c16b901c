import ByteCoding
import Crypto
import Foundation
import ParleyCore

/// The download links of access archives (API.md §14.1): Sendbird's `files.url` and
/// `files.expires_at`. A link carries its expiry and an HMAC of the request and the expiry, so it
/// can be handed to the data subject without the API token; it stops working when it expires,
/// and the sweeper then removes the archive.
public struct ArchiveLinks: Sendable {
    let key: SymmetricKey
    let baseURL: String
    /// How long an archive can be downloaded after its request finished.
    public let lifetimeMillis: Int64

    public init(key: SymmetricKey, baseURL: String, lifetimeMillis: Int64) {
        self.key = key
        self.baseURL = baseURL
        self.lifetimeMillis = lifetimeMillis
    }

    public func link(requestID: String, expiresAt: Int64) -> (url: String, expiresAt: Int64) {
        let encodedID = requestID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? requestID
        let url = "\(baseURL)/v3/privacy/gdpr/\(encodedID)/archive?expires_at=\(expiresAt)&signature=\(signature(requestID, expiresAt))"
        return (url, expiresAt)
    }

    /// Whether a link's `expires_at` and `signature` are this server's for the request and still good.
    public func verify(requestID: String, expiresAt: Int64, signature given: String, now: Int64) -> Bool {
        guard now < expiresAt else { return false }
        let expected = Array(signature(requestID, expiresAt).utf8)
        let actual = Array(given.utf8)
        // Constant time in the signature's length, which is fixed.
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func signature(_ requestID: String, _ expiresAt: Int64) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("gdpr-archive|\(requestID)|\(expiresAt)".utf8), using: key)
        return Base64URL.encode(Array(mac))
    }
}
