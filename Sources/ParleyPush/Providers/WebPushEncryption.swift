import Crypto
import Foundation

/// Web Push message encryption (RFC 8291, content coding `aes128gcm` of RFC 8188): the payload
/// is readable only by the browser whose subscription keys it was encrypted for.
enum WebPushEncryption {
    enum Failure: Error {
        case invalidSubscriptionKey
    }

    /// The body of the push request. `salt` and `serverKey` are fresh per message (parameters so
    /// a test can reproduce RFC 8291's example).
    static func encrypt(
        _ plaintext: [UInt8], subscriberKey p256dh: [UInt8], authSecret: [UInt8],
        serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    ) throws -> [UInt8] {
        guard let subscriber = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else { throw Failure.invalidSubscriptionKey }
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: subscriber)
        let serverPublic = Array(serverKey.publicKey.x963Representation)
        // RFC 8291 §3.3: the input keying material binds both public keys and the auth secret.
        let keyInfo = Array("WebPush: info\0".utf8) + p256dh + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let contentKey = ikm.withUnsafeBytes { ikmBytes in
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: ikmBytes), salt: salt, info: Array("Content-Encoding: aes128gcm\0".utf8),
                outputByteCount: 16)
        }
        let nonce = ikm.withUnsafeBytes { ikmBytes in
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: ikmBytes), salt: salt, info: Array("Content-Encoding: nonce\0".utf8),
                outputByteCount: 12)
        }
        // One record: the plaintext and the last record's delimiter (0x02), no further padding.
        let sealed = try AES.GCM.seal(
            plaintext + [0x02], using: contentKey, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
        let recordSize = UInt32(4096)
        var body = salt
        body += withUnsafeBytes(of: recordSize.bigEndian) { Array($0) }
        body.append(UInt8(serverPublic.count))
        body += serverPublic
        body += Array(sealed.ciphertext) + Array(sealed.tag)
        return body
    }
}
