import ByteCoding
import Crypto
import Foundation
import ParleyCore

/// The two signatures of a delivery (API.md §10.2): Standard Webhooks' `webhook-signature`
/// (`v1,` and the base64 HMAC-SHA256 of "id.timestamp.body" under each current secret) and
/// Sendbird's `x-sendbird-signature` (hex HMAC-SHA256 of the body under the master API token),
/// so that receivers written for either verify Parley's deliveries unchanged.
public enum WebhookSigner {
    /// A new secret: `whsec_` and 24 random bytes in base64.
    public static func newSecret() -> String {
        "whsec_" + Data(SymmetricKey(size: .init(bitCount: 192)).withUnsafeBytes { Array($0) }).base64EncodedString()
    }

    /// `webhook-signature`: one `v1,…` per secret, space-separated (a rotation signs with both).
    public static func standardSignature(id: String, timestamp: Int64, body: String, secrets: [String]) -> String {
        secrets.compactMap { secret -> String? in
            guard let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count))) else { return nil }
            let mac = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).\(body)".utf8), using: SymmetricKey(data: key))
            return "v1," + Data(mac).base64EncodedString()
        }.joined(separator: " ")
    }

    /// `x-sendbird-signature`.
    public static func sendbirdSignature(body: String, apiToken: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: SymmetricKey(data: Data(apiToken.utf8))))
    }
}
