import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes one stored file: plaintext goes in as it arrives, sealed chunks go to a temporary file,
/// and `commit` makes the file appear whole under its final name (fsync, rename, fsync of the
/// folder), so a crash at any point leaves either no file or a complete one. Not thread-safe:
/// one upload owns it.
final class EncryptedFileWriter {
    private let cipher: ChunkCipher
    private let temporaryPath: String
    private let finalPath: String
    private var descriptor: Int32
    private var pending: [UInt8] = []
    private var sealed: [UInt8] = []
    private var chunkIndex = 0
    private(set) var plaintextSize: Int64 = 0

    init(fileID: String, temporaryPath: String, finalPath: String, keyring: FileKeyring) throws {
        var prefix = [UInt8](repeating: 0, count: EncryptedFileFormat.noncePrefixSize)
        for index in prefix.indices { prefix[index] = UInt8.random(in: 0...255) }
        let format = EncryptedFileFormat(noncePrefix: prefix)
        let dataKey = keyring.newDataKey()
        let header = format.headerPrefix + (try keyring.wrap(dataKey, fileID: fileID, headerPrefix: format.headerPrefix))
        self.cipher = ChunkCipher(format: format, key: dataKey)
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
        self.descriptor = Glibc.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileStorageError.io("creating \(temporaryPath)", errno) }
        pending.reserveCapacity(format.chunkSize)
        sealed.reserveCapacity(format.sealedChunkSize * 4)
        sealed.append(contentsOf: header)
    }

    deinit {
        abort()
    }

    /// Adds plaintext; full chunks are sealed and written. The last chunk waits for `commit`,
    /// since only then is it known to be the last.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            if pending.count == cipher.format.chunkSize { try sealPending(isLast: false) }
            let take = min(cipher.format.chunkSize - pending.count, bytes.count - offset)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
        }
        plaintextSize += Int64(bytes.count)
        if sealed.count >= 4 * cipher.format.sealedChunkSize { try flush() }
    }

    /// Seals the last chunk, makes the file durable and gives it its final name.
    func commit() throws {
        try sealPending(isLast: true)
        try flush()
        guard fsync(descriptor) == 0 else { throw FileStorageError.io("fsync of \(temporaryPath)", errno) }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, finalPath) == 0 else { throw FileStorageError.io("renaming to \(finalPath)", errno) }
        try Self.syncFolder(of: finalPath)
    }

    /// Drops an unfinished file (idempotent; also what happens if the writer is dropped).
    func abort() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
    }

    private func sealPending(isLast: Bool) throws {
        try pending.withUnsafeBytes { try cipher.seal($0, chunk: chunkIndex, isLast: isLast, into: &sealed) }
        pending.removeAll(keepingCapacity: true)
        chunkIndex += 1
    }

    private func flush() throws {
        try sealed.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw FileStorageError.io("writing \(temporaryPath)", errno)
                }
                written += result
            }
        }
        sealed.removeAll(keepingCapacity: true)
    }

    /// A rename is durable only once the folder holding it is synced.
    static func syncFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileStorageError.io("opening \(folder)", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileStorageError.io("fsync of \(folder)", errno) }
    }
}
