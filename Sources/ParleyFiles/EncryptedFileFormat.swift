import Foundation

/// The layout of a stored file: a header, then the plaintext in fixed-size chunks, each sealed
/// with AES-256-GCM under the file's own data key (the STREAM construction).
///
/// ```
/// 0   magic "PRLYFIL1"      8 bytes (names the format and its version)
/// 8   chunk size            4 bytes, big-endian
/// 12  nonce prefix          7 bytes, random per file
/// 19  wrapped data key      60 bytes: nonce 12 ‖ key 32 ‖ tag 16, sealed by the master key
/// 79  chunk 0 ‖ chunk 1 ‖ … each = ciphertext ‖ tag 16; only the last may be shorter
/// ```
///
/// A chunk's nonce is prefix ‖ index (4 bytes) ‖ last-chunk flag (1 byte), so reordered,
/// dropped, duplicated or appended chunks fail authentication, and a Range request decrypts only
/// the chunks it covers. The key is wrapped with the file id and the header's first 19 bytes as
/// associated data, so a header edit or a file moved to another id fails at unwrapping. The
/// plaintext size follows from the file size (the last chunk holds 1…chunkSize bytes, or 0 for
/// an empty file).
struct EncryptedFileFormat: Equatable {
    static let magic = Array("PRLYFIL1".utf8)
    static let tagSize = 16
    static let noncePrefixSize = 7
    static let wrappedKeySize = 12 + 32 + 16
    static let headerSize = 8 + 4 + noncePrefixSize + wrappedKeySize
    /// The authenticated part of the header (before the wrapped key).
    static let headerPrefixSize = 8 + 4 + noncePrefixSize
    static let defaultChunkSize = 64 * 1024

    let chunkSize: Int
    let noncePrefix: [UInt8]

    var sealedChunkSize: Int { chunkSize + Self.tagSize }

    /// The first 19 header bytes.
    var headerPrefix: [UInt8] {
        var bytes = Self.magic
        withUnsafeBytes(of: UInt32(chunkSize).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: noncePrefix)
        return bytes
    }

    /// Reads the format from the first `headerPrefixSize` bytes; nil when they are not a header of ours.
    init?(headerPrefix bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count >= Self.headerPrefixSize, Array(bytes[0..<8]) == Self.magic else { return nil }
        let chunkSize = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard chunkSize >= 1024, chunkSize <= 16 * 1024 * 1024 else { return nil }
        self.chunkSize = chunkSize
        self.noncePrefix = Array(bytes[12..<19])
    }

    init(chunkSize: Int = Self.defaultChunkSize, noncePrefix: [UInt8]) {
        self.chunkSize = chunkSize
        self.noncePrefix = noncePrefix
    }

    /// The nonce of chunk `index`.
    func nonce(chunk index: Int, isLast: Bool) -> [UInt8] {
        var nonce = noncePrefix
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: index).bigEndian) { nonce.append(contentsOf: $0) }
        nonce.append(isLast ? 1 : 0)
        return nonce
    }

    /// Where chunk `index` starts in the file.
    func offset(chunk index: Int) -> Int64 {
        Int64(Self.headerSize) + Int64(index) * Int64(sealedChunkSize)
    }

    /// The chunk count and plaintext size of a file `fileSize` bytes long; nil when no file of
    /// this format has that size (truncated).
    func geometry(fileSize: Int64) -> (chunks: Int, plaintextSize: Int64)? {
        let body = fileSize - Int64(Self.headerSize)
        guard body >= Int64(Self.tagSize) else { return nil }
        let chunks = Int((body + Int64(sealedChunkSize) - 1) / Int64(sealedChunkSize))
        let last = body - Int64(chunks - 1) * Int64(sealedChunkSize) - Int64(Self.tagSize)
        guard last >= 0, last > 0 || chunks == 1 else { return nil }
        return (chunks, Int64(chunks - 1) * Int64(chunkSize) + last)
    }
}
