import Crypto
import Foundation

/// Reads a stored file back: checks its header, unwraps its key and decrypts the chunks a byte
/// range needs. Each chunk is authenticated before any of its bytes are returned.
public final class EncryptedFileReader: Sendable {
    private let source: any SealedSource
    private let cipher: ChunkCipher
    public let chunkCount: Int
    public let plaintextSize: Int64

    /// Opens the sealed bytes of `fileID` from `source`.
    static func open(_ source: any SealedSource, fileID: String, keyring: FileKeyring) async throws -> EncryptedFileReader {
        guard source.size >= Int64(EncryptedFileFormat.headerSize) else {
            throw FileStorageError.corrupt("the header or the length is wrong")
        }
        let header = try await source.read(at: 0, count: EncryptedFileFormat.headerSize)
        return try EncryptedFileReader(source, header: header, fileID: fileID, keyring: keyring)
    }

    /// Opens a stored file on the local disk by its path (the file benchmark's reader).
    public static func open(path: String, fileID: String, keyring: FileKeyring) async throws -> EncryptedFileReader {
        try await open(LocalSealedSource(path: path), fileID: fileID, keyring: keyring)
    }

    private init(_ source: any SealedSource, header: [UInt8], fileID: String, keyring: FileKeyring) throws {
        guard let format = EncryptedFileFormat(headerPrefix: header), let geometry = format.geometry(fileSize: source.size) else {
            throw FileStorageError.corrupt("the header or the length is wrong")
        }
        let prefix = Array(header[0..<EncryptedFileFormat.headerPrefixSize])
        let key = try keyring.unwrap(Array(header[EncryptedFileFormat.headerPrefixSize...]), fileID: fileID, headerPrefix: prefix)
        self.source = source
        self.cipher = ChunkCipher(format: format, key: key)
        self.chunkCount = geometry.chunks
        self.plaintextSize = geometry.plaintextSize
    }

    public var chunkSize: Int { cipher.format.chunkSize }

    /// The decrypted chunk `index`.
    public func chunk(_ index: Int) async throws -> Data {
        let isLast = index == chunkCount - 1
        let plainLength = isLast ? Int(plaintextSize - Int64(index) * Int64(chunkSize)) : chunkSize
        let sealed = try await source.read(at: cipher.format.offset(chunk: index), count: plainLength + EncryptedFileFormat.tagSize)
        return try cipher.open(sealed[...], chunk: index, isLast: isLast)
    }

    /// The plaintext bytes `range` (within `0..<plaintextSize`), a chunk at a time.
    /// `firstChunk`, when given, is the already decrypted chunk where the range starts.
    func read(_ range: Range<Int64>, firstChunk: Data? = nil, _ consume: (Data) async throws -> Void) async throws {
        guard !range.isEmpty else { return }
        let first = Int(range.lowerBound / Int64(chunkSize))
        let last = Int((range.upperBound - 1) / Int64(chunkSize))
        for index in first...last {
            let plain = if index == first, let firstChunk { firstChunk } else { try await chunk(index) }
            let chunkStart = Int64(index) * Int64(chunkSize)
            let from = Int(max(range.lowerBound - chunkStart, 0))
            let to = Int(min(range.upperBound - chunkStart, Int64(plain.count)))
            try await consume(from == 0 && to == plain.count ? plain : plain.subdata(in: from..<to))
        }
    }
}
