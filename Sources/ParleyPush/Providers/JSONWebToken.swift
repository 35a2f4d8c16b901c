import ByteCoding
import Crypto
import Foundation
import _CryptoExtras

/// The compact JSON Web Tokens the push providers take (RFC 7515): an APNs provider token and a
/// VAPID token (ES256), and a Google service account's OAuth assertion (RS256).
enum JSONWebToken {
    /// `header.claims.signature`, each base64url without padding; ES256's signature is the raw
    /// 64 bytes r‖s (not DER), as RFC 7518 §3.4 says.
    static func es256(header: [String: String], claims: [String: Any], key: P256.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header.merging(["alg": "ES256", "typ": "JWT"]) { mine, _ in mine }, claims: claims)
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    /// RS256: RSASSA-PKCS1-v1_5 with SHA-256.
    static func rs256(header: [String: String], claims: [String: Any], key: _RSA.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header.merging(["alg": "RS256", "typ": "JWT"]) { mine, _ in mine }, claims: claims)
        let signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    private static func signingInput(header: [String: String], claims: [String: Any]) throws -> String {
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let claimsJSON = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return Base64URL.encode(Array(headerJSON)) + "." + Base64URL.encode(Array(claimsJSON))
    }
}
