import Crypto
import Foundation

/// Seals and opens the chunks of one stored file with its data key.
struct ChunkCipher {
    let format: EncryptedFileFormat
    let key: SymmetricKey

    /// `ciphertext ‖ tag` of chunk `index`, appended to `output`.
    func seal(_ plaintext: UnsafeRawBufferPointer, chunk index: Int, isLast: Bool, into output: inout [UInt8]) throws {
        let nonce = try AES.GCM.Nonce(data: format.nonce(chunk: index, isLast: isLast))
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
        output.append(contentsOf: box.ciphertext)
        output.append(contentsOf: box.tag)
    }

    /// The plaintext of chunk `index` from `ciphertext ‖ tag`; throws when it was altered.
    func open(_ sealed: ArraySlice<UInt8>, chunk index: Int, isLast: Bool) throws -> Data {
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
