import ByteCoding
import Crypto
import Foundation

/// Opaque keyset cursors for list endpoints (API.md §1.6).
///
/// A token holds the sort key of the last item returned and the list it belongs to (`scope`,
/// which includes the filters), signed with HMAC-SHA256 so that a tampered token or one reused
/// with other filters is refused with 400109 instead of silently paging something else.
public struct PageTokenCodec: Sendable {
    private let key: SymmetricKey

    /// `key` is `ServerKeys.pageTokens`: a key of its own, so that tokens outlive a rotation of
    /// the API token.
    public init(key: SymmetricKey) {
        self.key = key
    }

    public func encode(scope: String, position: [String]) -> String {
        let payload = (try? JSONEncoder().encode(position)) ?? Data()
        let signature = HMAC<SHA256>.authenticationCode(for: Array(scope.utf8) + [0] + payload, using: key)
        return Base64URL.encode(Array(payload)) + "." + Base64URL.encode(Array(signature))
    }

    /// The position stored in `token`, or 400109 when it was not issued for this `scope`.
    public func decode(_ token: String, scope: String) throws -> [String] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Array(scope.utf8) + [0] + payload, using: key),
            let position = try? JSONDecoder().decode([String].self, from: Data(payload))
        else { throw ParleyError.invalidPageToken }
        return position
    }
}
