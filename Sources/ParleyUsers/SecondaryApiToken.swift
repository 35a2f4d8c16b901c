import Foundation
import ParleyCore

/// A secondary API token (API.md §14.7): 40 lower-case hex characters, as Sendbird's tokens
/// look, of which the first 16 are its public selector (what the token list shows, and what
/// names it for revocation) and the last 24 its secret, stored only as its SHA-256.
public enum SecondaryApiToken {
    static let selectorLength = 16
    static let secretLength = 24

    /// A new token: the whole of it (shown once), its selector, and its secret's hash.
    static func make() -> (token: String, selector: String, secretHash: Data) {
        let bytes = (0..<(selectorLength + secretLength) / 2).map { _ in UInt8.random(in: 0...255) }
        let token = bytes.map { String(format: "%02x", $0) }.joined()
        let secret = token.dropFirst(selectorLength)
        return (token, String(token.prefix(selectorLength)), SecretHashing.sha256(secret))
    }

    /// The selector and secret of something shaped like a secondary token; nil otherwise.
    static func parts(of token: String) -> (selector: String, secret: Substring)? {
        guard token.utf8.count == selectorLength + secretLength,
            token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return (String(token.prefix(selectorLength)), token.dropFirst(selectorLength))
    }

    /// The selector a path names: a whole token's, or a selector on its own.
    static func selector(named value: String) -> String? {
        if let parts = parts(of: value) { return parts.selector }
        guard value.utf8.count == selectorLength, value.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        return value
    }
}
