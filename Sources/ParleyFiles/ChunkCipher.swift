import Crypto
import Foundation
import ParleyCore

/// Seals and opens the chunks of one stored file with its data key. Public so that the file
/// benchmark measures exactly this code against `openssl speed`.
public struct ChunkCipher: Sendable {
    let format: EncryptedFileFormat
    let key: SymmetricKey

    init(format: EncryptedFileFormat, key: SymmetricKey) {
        self.format = format
        self.key = key
    }

    /// A cipher with a fresh random key and nonce prefix, and the default chunk size.
    public static func random() -> ChunkCipher {
        ChunkCipher(
            format: EncryptedFileFormat(noncePrefix: SecretHashing.randomBytes(EncryptedFileFormat.noncePrefixSize)),
            key: SymmetricKey(size: .bits256)
        )
    }

    public var chunkSize: Int { format.chunkSize }

    /// `ciphertext ‖ tag` of chunk `index`: a view into the sealed box, not a copy.
    public func seal(_ plaintext: UnsafeRawBufferPointer, chunk index: Int, isLast: Bool) throws -> Data {
        let nonce = try AES.GCM.Nonce(data: format.nonce(chunk: index, isLast: isLast))
        guard let combined = try AES.GCM.seal(plaintext, using: key, nonce: nonce).combined else {
            throw FileStorageError.corrupt("sealing chunk \(index) gave no combined form")
        }
        // combined = nonce (12) ‖ ciphertext ‖ tag; the nonce is derived, so it is not stored.
        return combined.dropFirst(12)
    }

    /// The plaintext of chunk `index` from `ciphertext ‖ tag`; throws when it was altered.
    public func open(_ sealed: ArraySlice<UInt8>, chunk index: Int, isLast: Bool) throws -> Data {
        guard sealed.count >= EncryptedFileFormat.tagSize else { throw FileStorageError.corrupt("chunk \(index) is truncated") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: format.nonce(chunk: index, isLast: isLast)),
                ciphertext: sealed.dropLast(EncryptedFileFormat.tagSize),
                tag: sealed.suffix(EncryptedFileFormat.tagSize)
            )
            return try AES.GCM.open(box, using: key)
        } catch {
            throw FileStorageError.corrupt("chunk \(index) fails authentication")
        }
    }
}
