import ByteCoding
import Crypto
import Foundation
import ParleyCore

/// File auth keys (API.md §5.3): `?auth=` on download URLs. A key is signed, not stored —
/// `payload.signature`, where the payload holds the user, the user's key generation, when it was
/// issued and when it expires — so a message page can carry the caller's key without a write.
///
/// A key works while its generation is the user's current one (`users.file_key_generation`).
/// Revoking the user's session tokens or deactivating the user moves the generation on, which
/// ends every key issued before; a user deleted and created again starts at a generation no key
/// of the old account carries.
public struct FileAuthKeys: Sendable {
    private let signingKey: SymmetricKey
    /// How long an issued key works.
    public let lifetimeMillis: Int64
    static let version: UInt8 = 2

    public init(signingKey: SymmetricKey, lifetimeMillis: Int64) {
        self.signingKey = signingKey
        self.lifetimeMillis = lifetimeMillis
    }

    /// A key of `userID`, of their key `generation`, issued at `now`.
    public func issue(userID: String, generation: Int64, now: Int64) -> (auth: String, expiresAt: Int64) {
        let expiresAt = now + lifetimeMillis
        var payload: [UInt8] = [Self.version]
        for number in [now, expiresAt, generation] {
            withUnsafeBytes(of: number.bigEndian) { payload.append(contentsOf: $0) }
        }
        payload.append(contentsOf: userID.utf8)
        let signature = HMAC<SHA256>.authenticationCode(for: payload, using: signingKey)
        return (Base64URL.encode(payload) + "." + Base64URL.encode(Array(signature)), expiresAt)
    }

    /// The user and generation of a well-signed, unexpired key; 401/400302 otherwise.
    func verify(_ auth: String, now: Int64) throws -> (userID: String, generation: Int64) {
        let parts = auth.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]),
            payload.count > 25, payload[0] == Self.version,
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: payload, using: signingKey)
        else { throw Self.invalid }
        let number = { (offset: Int) in payload[offset..<(offset + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) } }
        guard number(9) > now, let userID = String(bytes: payload[25...], encoding: .utf8) else { throw Self.invalid }
        return (userID, number(17))
    }

    static let invalid = ParleyError.fileKeyRefused("The file auth key is invalid or expired.")
}
