import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a stored file back: checks its header, unwraps its key and decrypts the chunks a byte
/// range needs. Each chunk is authenticated before any of its bytes are returned.
public final class EncryptedFileReader: @unchecked Sendable {
    // @unchecked: the descriptor is only read with pread (no shared offset) and closed in deinit.
    private let descriptor: Int32
    private let cipher: ChunkCipher
    public let chunkCount: Int
    public let plaintextSize: Int64

    public init(path: String, fileID: String, keyring: FileKeyring) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? FileStorageError.corrupt("the file is missing") : FileStorageError.io("opening \(path)", errno)
        }
        self.descriptor = descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw FileStorageError.io("stat of \(path)", errno)
        }
        var header = [UInt8](repeating: 0, count: EncryptedFileFormat.headerSize)
        do {
            try Self.readFully(descriptor, into: &header, at: 0)
            guard let format = EncryptedFileFormat(headerPrefix: header),
                let geometry = format.geometry(fileSize: Int64(status.st_size))
            else { throw FileStorageError.corrupt("the header or the length is wrong") }
            let prefix = Array(header[0..<EncryptedFileFormat.headerPrefixSize])
            let key = try keyring.unwrap(Array(header[EncryptedFileFormat.headerPrefixSize...]), fileID: fileID, headerPrefix: prefix)
            self.cipher = ChunkCipher(format: format, key: key)
            self.chunkCount = geometry.chunks
            self.plaintextSize = geometry.plaintextSize
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    public var chunkSize: Int { cipher.format.chunkSize }

    /// The decrypted chunk `index`.
    public func chunk(_ index: Int) throws -> Data {
        let isLast = index == chunkCount - 1
        let plainLength = isLast ? Int(plaintextSize - Int64(index) * Int64(chunkSize)) : chunkSize
        var sealed = [UInt8](repeating: 0, count: plainLength + EncryptedFileFormat.tagSize)
        try Self.readFully(descriptor, into: &sealed, at: cipher.format.offset(chunk: index))
        return try cipher.open(sealed[...], chunk: index, isLast: isLast)
    }

    /// The plaintext bytes `range` (within `0..<plaintextSize`), a chunk at a time. Each read
    /// and decryption runs off the cooperative threads: a cold disk must not stall the server.
    /// `firstChunk`, when given, is the already decrypted chunk where the range starts.
    func read(_ range: Range<Int64>, firstChunk: Data? = nil, _ consume: (Data) async throws -> Void) async throws {
        guard !range.isEmpty else { return }
        let first = Int(range.lowerBound / Int64(chunkSize))
        let last = Int((range.upperBound - 1) / Int64(chunkSize))
        for index in first...last {
            let plain = if index == first, let firstChunk { firstChunk } else { try await BlockingWork.run { try self.chunk(index) } }
            let chunkStart = Int64(index) * Int64(chunkSize)
            let from = Int(max(range.lowerBound - chunkStart, 0))
            let to = Int(min(range.upperBound - chunkStart, Int64(plain.count)))
            try await consume(from == 0 && to == plain.count ? plain : plain.subdata(in: from..<to))
        }
    }

    private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int64) throws {
        let count = buffer.count
        try buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let result = pread(descriptor, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw FileStorageError.io("reading a stored file", errno)
                }
                if result == 0 { throw FileStorageError.corrupt("the file ends early") }
                done += result
            }
        }
    }
}
