import Crypto
import Foundation
import ParleyCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one stored file: plaintext goes in as it arrives, sealed chunks go to a temporary file,
/// and `commit` makes the file appear whole under its final name (fsync, rename, fsync of the
/// folder), so a crash at any point leaves either no file or a complete one; or `seal` finishes
/// the temporary file for the object store to take (`FileStorage.commit`). Not thread-safe: one
/// upload owns it, handing it from one step to the next (hence unchecked).
public final class EncryptedFileWriter: @unchecked Sendable {
    private let cipher: ChunkCipher
    let temporaryPath: String
    /// Nil when the file goes to the object store from `temporaryPath`.
    private let finalPath: String?
    private var descriptor: Int32
    /// Plaintext of the chunk being filled.
    private var pending: [UInt8] = []
    private var chunkIndex = 0
    public private(set) var plaintextSize: Int64 = 0

    public init(fileID: String, temporaryPath: String, finalPath: String?, keyring: FileKeyring) throws {
        let format = EncryptedFileFormat(noncePrefix: SecretHashing.randomBytes(EncryptedFileFormat.noncePrefixSize))
        let dataKey = keyring.newDataKey()
        let header = format.headerPrefix + (try keyring.wrap(dataKey, fileID: fileID, headerPrefix: format.headerPrefix))
        self.cipher = ChunkCipher(format: format, key: dataKey)
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
        self.descriptor = Glibc.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileStorageError.io("creating \(temporaryPath)", errno) }
        pending.reserveCapacity(format.chunkSize)
        do {
            try header.withUnsafeBytes { try writeAll($0) }
        } catch {
            abort()
            throw error
        }
    }

    deinit {
        abort()
    }

    /// Adds plaintext; full chunks are sealed and written. The last chunk waits for `commit`,
    /// since only then is it known to be the last. Whole chunks inside `bytes` are sealed in
    /// place, without a copy.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        let chunkSize = cipher.format.chunkSize
        var offset = 0
        while offset < bytes.count {
            if pending.count == chunkSize {
                try pending.withUnsafeBytes { try sealAndWrite($0, isLast: false) }
                pending.removeAll(keepingCapacity: true)
            }
            let remaining = bytes.count - offset
            if pending.isEmpty && remaining > chunkSize {
                try sealAndWrite(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + chunkSize)]), isLast: false)
                offset += chunkSize
                continue
            }
            let take = min(chunkSize - pending.count, remaining)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
        }
        plaintextSize += Int64(bytes.count)
    }

    /// Seals the last chunk, makes the file durable and gives it its final name.
    public func commit() throws {
        guard let finalPath else { throw FileStorageError.io("committing a file meant for the object store", EINVAL) }
        try pending.withUnsafeBytes { try sealAndWrite($0, isLast: true) }
        pending = []
        guard fsync(descriptor) == 0 else { throw FileStorageError.io("fsync of \(temporaryPath)", errno) }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, finalPath) == 0 else { throw FileStorageError.io("renaming to \(finalPath)", errno) }
        try Self.syncFolder(of: finalPath)
    }

    /// Seals the last chunk and closes the temporary file, which is then the caller's to send
    /// and remove (no fsync: it is read back at once, and a crash loses an unacknowledged upload).
    func seal() throws {
        try pending.withUnsafeBytes { try sealAndWrite($0, isLast: true) }
        pending = []
        close(descriptor)
        descriptor = -1
    }

    /// Drops an unfinished file (idempotent; also what happens if the writer is dropped).
    public func abort() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
    }

    private func sealAndWrite(_ plaintext: UnsafeRawBufferPointer, isLast: Bool) throws {
        let sealed = try cipher.seal(plaintext, chunk: chunkIndex, isLast: isLast)
        chunkIndex += 1
        try sealed.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ buffer: UnsafeRawBufferPointer) throws {
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

    /// A rename is durable only once the folder holding it is synced.
    static func syncFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileStorageError.io("opening \(folder)", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileStorageError.io("fsync of \(folder)", errno) }
    }
}
