import Foundation
import S3Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a stored file's sealed bytes are read from: a local file or an object in the store.
protocol SealedSource: Sendable {
    var size: Int64 { get }
    /// Exactly `count` bytes from `offset` (within `size`).
    func read(at offset: Int64, count: Int) async throws -> [UInt8]
}

/// A file on the local disk, read with pread on the blocking pool (a cold disk must not stall
/// the cooperative threads).
final class LocalSealedSource: SealedSource {
    private let descriptor: Int32
    let size: Int64

    init(path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? FileStorageError.corrupt("the file is missing") : FileStorageError.io("opening \(path)", errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw FileStorageError.io("stat of \(path)", errno)
        }
        self.descriptor = descriptor
        self.size = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    func read(at offset: Int64, count: Int) async throws -> [UInt8] {
        try await BlockingWork.run { try self.readNow(at: offset, count: count) }
    }

    /// Fills `buffer` (its whole count) from `offset`, in place: a buffer used over and over
    /// (an object store's parts) is never copied.
    func read(at offset: Int64, into buffer: inout [UInt8]) async throws {
        // The bytes move into a box the blocking thread fills, then back, so no two hold them
        // while they are written (which would copy them).
        let box = ByteBox(buffer)
        buffer = []
        try await BlockingWork.run { try self.fill(&box.bytes, at: offset) }
        buffer = box.bytes
    }

    func readNow(at offset: Int64, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        try fill(&buffer, at: offset)
        return buffer
    }

    private func fill(_ buffer: inout [UInt8], at offset: Int64) throws {
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

/// Bytes a blocking thread fills while their owner waits (`LocalSealedSource.read(at:into:)`);
/// only one of them touches the box at a time.
final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// An object in the S3 store, read a window at a time (`S3Settings.readWindow`, 1 MiB): a
/// download's chunks come from one ranged GET per window, and memory holds one window.
final class ObjectSealedSource: SealedSource {
    private let objects: S3Client
    private let key: String
    let size: Int64
    private let window: Mutex<(offset: Int64, bytes: [UInt8])>

    /// Reads the first window, which tells the object's size; a missing object is a missing file.
    static func open(_ objects: S3Client, key: String) async throws -> ObjectSealedSource {
        do {
            let first = try await objects.get(key, range: 0..<Int64(objects.settings.readWindow))
            return ObjectSealedSource(objects, key: key, size: first.totalSize, first: first.bytes)
        } catch S3Error.notFound {
            throw FileStorageError.corrupt("the file is missing")
        }
    }

    private init(_ objects: S3Client, key: String, size: Int64, first: [UInt8]) {
        self.objects = objects
        self.key = key
        self.size = size
        self.window = Mutex((0, first))
    }

    func read(at offset: Int64, count: Int) async throws -> [UInt8] {
        if let held = window.withLock({ Self.slice($0, offset, count) }) { return held }
        let length = max(count, objects.settings.readWindow)
        let fetched = try await objects.get(key, range: offset..<min(size, offset + Int64(length))).bytes
        guard fetched.count >= count else { throw FileStorageError.corrupt("the file ends early") }
        window.withLock { $0 = (offset, fetched) }
        return Array(fetched[0..<count])
    }

    private static func slice(_ window: (offset: Int64, bytes: [UInt8]), _ offset: Int64, _ count: Int) -> [UInt8]? {
        let start = offset - window.offset
        guard start >= 0, start + Int64(count) <= Int64(window.bytes.count) else { return nil }
        return Array(window.bytes[Int(start)..<Int(start) + count])
    }
}
