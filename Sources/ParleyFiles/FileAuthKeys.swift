import Crypto
import Foundation
import ParleyCore

/// File auth keys (API.md §5.3): `?auth=` on download URLs. A key is signed, not stored —
/// `payload.signature`, where the payload holds the user, when it was issued and when it
/// expires — so a message page can carry the caller's key without a write. Revoking the user's
/// session tokens revokes the keys issued before that instant (`users.file_keys_valid_after`).
public struct FileAuthKeys: Sendable {
    private let signingKey: SymmetricKey
    /// How long an issued key works.
    public let lifetimeMillis: Int64

    public init(keyring: FileKeyring, lifetimeMillis: Int64) {
        self.signingKey = keyring.authKeySigningKey
        self.lifetimeMillis = lifetimeMillis
    }

    /// A key of `userID` issued at `now`.
    public func issue(userID: String, now: Int64) -> (auth: String, expiresAt: Int64) {
        let expiresAt = now + lifetimeMillis
        var payload: [UInt8] = [1]
        withUnsafeBytes(of: now.bigEndian) { payload.append(contentsOf: $0) }
        withUnsafeBytes(of: expiresAt.bigEndian) { payload.append(contentsOf: $0) }
        payload.append(contentsOf: userID.utf8)
        let signature = HMAC<SHA256>.authenticationCode(for: payload, using: signingKey)
        return (Base64URL.encode(payload) + "." + Base64URL.encode(Array(signature)), expiresAt)
    }

    /// The user and issue time of a well-signed, unexpired key; 401/400302 otherwise.
    func verify(_ auth: String, now: Int64) throws -> (userID: String, issuedAt: Int64) {
        let parts = auth.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]),
              payload.count > 17, payload[0] == 1,
              HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: payload, using: signingKey)
        else { throw Self.invalid }
        let issuedAt = payload[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let expiresAt = payload[9..<17].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard expiresAt > now, let userID = String(bytes: payload[17...], encoding: .utf8) else { throw Self.invalid }
        return (userID, issuedAt)
    }

    static let invalid = ParleyError(status: 401, code: 400302, message: "The file auth key is invalid or expired.")
}
