import ByteCoding
import Crypto
import Foundation

/// How channel access codes are stored and checked: as `hmac-sha256:<hex>` keyed with a server
/// key, so a leaked table cannot be checked against guesses without that key (unlike a bare
/// SHA-256, which a dictionary of short codes reverses at once).
public struct AccessCodes: Sendable {
    private let key: SymmetricKey
    static let prefix = "hmac-sha256:"

    public init(key: SymmetricKey) {
        self.key = key
    }

    /// The stored form of `code`.
    public func stored(_ code: String) -> String {
        Self.prefix + Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(code.utf8), using: key))
    }

    public enum Match: Sendable, Equatable {
        case no
        case yes
        /// The code is right, and `stored` is the unsalted SHA-256 of earlier versions: store
        /// `stored(code)` in its place.
        case yesInLegacyForm
    }

    /// Whether `code` is the code whose stored form is `stored`, compared in constant time.
    public func match(_ code: String?, stored: String) -> Match {
        guard let code else { return .no }
        if stored.hasPrefix(Self.prefix) {
            guard let expected = Hex.decode(stored.dropFirst(Self.prefix.count)) else { return .no }
            return HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Array(code.utf8), using: key) ? .yes : .no
        }
        // The legacy form: lowercase hex of SHA-256.
        guard let expected = Hex.decode(Substring(stored)) else { return .no }
        return SecretHashing.constantTimeEquals(SecretHashing.sha256(code), Data(expected)) ? .yesInLegacyForm : .no
    }
}
