import ByteCoding
import Crypto
import Foundation

/// Hashing and constant-time comparison of secrets (session tokens, the API token),
/// and random identifiers.
public enum SecretHashing {
    public static func sha256(_ text: some StringProtocol) -> Data {
        Data(sha256Digest(String(text)))
    }

    /// The SHA-256 digest of the text's UTF-8, as swift-crypto's value: digests compare in
    /// constant time with `==`. Hashes the string's own storage, without a copy.
    public static func sha256Digest(_ text: String) -> SHA256.Digest {
        var text = text
        return text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    }

    /// Compares two digests in time that depends only on their length, never on where they differ.
    public static func constantTimeEquals(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { (left: UnsafeRawBufferPointer) -> Bool in
            rhs.withUnsafeBytes { (right: UnsafeRawBufferPointer) -> Bool in
                var difference: UInt8 = 0
                for index in 0..<left.count { difference |= left[index] ^ right[index] }
                return difference == 0
            }
        }
    }

    /// `count` bytes from the system's secure generator (identifiers, nonces, keys).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `count` random bytes as lowercase hex.
    public static func randomHex(bytes count: Int) -> String {
        Hex.encode(randomBytes(count))
    }
}
