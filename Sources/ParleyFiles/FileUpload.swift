import Foundation
import ParleyCore
import Synchronization

/// How many bytes of image and video sources all uploads together may hold in memory for
/// thumbnailing; an upload that finds the budget spent is stored without thumbnails, so many
/// concurrent media uploads cannot balloon the process.
public final class ThumbnailSourceBudget: Sendable {
    private let available: Mutex<Int>

    public init(bytes: Int) {
        available = Mutex(bytes)
    }

    func reserve(_ count: Int) -> Bool {
        available.withLock { available in
            guard available >= count else { return false }
            available -= count
            return true
        }
    }

    func release(_ count: Int) {
        available.withLock { $0 += count }
    }
}

/// One upload in progress: plaintext is encrypted and written as it arrives, never held whole;
/// only an image or video small enough to thumbnail is also kept in memory for that. Owned by
/// one request (hence `@unchecked Sendable`); dropping it unfinished deletes what was written.
public final class FileUpload: @unchecked Sendable {
    public let fileID: String
    let writer: EncryptedFileWriter
    let maxBytes: Int64
    let sourceMaxBytes: Int
    let budget: ThumbnailSourceBudget
    /// The first bytes while the kind is unknown; then the whole media source, or nil.
    private(set) var source: [UInt8]? = []
    private(set) var sniffed: MediaSniffer.Kind?
    private var decided = false
    /// Bytes of `budget` this upload holds.
    private var reserved = 0

    init(fileID: String, writer: EncryptedFileWriter, maxBytes: Int64, sourceMaxBytes: Int, budget: ThumbnailSourceBudget) {
        self.fileID = fileID
        self.writer = writer
        self.maxBytes = maxBytes
        self.sourceMaxBytes = sourceMaxBytes
        self.budget = budget
    }

    deinit {
        budget.release(reserved)
    }

    /// Bytes received so far.
    public var size: Int64 { writer.plaintextSize }

    /// Adds the next bytes of the file; 413/400110 (and nothing kept) once it passes the limit.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard writer.plaintextSize + Int64(bytes.count) <= maxBytes else {
            writer.abort()
            throw ParleyError.bodyTooLarge(max: Int(maxBytes), what: "The file")
        }
        try writer.append(bytes)
        keepForThumbnails(bytes)
    }

    /// Runs `write`, which calls `append`, on a thread that may block: encrypting and writing
    /// are blocking work, and a disk that falls behind must not stall the request threads.
    public func offloaded(_ write: @escaping @Sendable (FileUpload) throws -> Void) async throws {
        try await BlockingWork.run { try write(self) }
    }

    /// Deletes what was written.
    public func abort() {
        writer.abort()
        dropSource()
    }

    /// Gives the in-memory source back once thumbnails are made (or cannot be).
    func dropSource() {
        source = nil
        budget.release(reserved)
        reserved = 0
    }

    private func keepForThumbnails(_ bytes: UnsafeRawBufferPointer) {
        guard source != nil else { return }
        guard source!.count + bytes.count <= sourceMaxBytes, budget.reserve(bytes.count) else {
            dropSource()
            return
        }
        reserved += bytes.count
        source!.append(contentsOf: bytes)
        if !decided && source!.count >= MediaSniffer.prefixLength { decide() }
    }

    /// Keeps collecting only for images and videos.
    func decide() {
        guard !decided else { return }
        decided = true
        sniffed = source.flatMap { MediaSniffer.kind(of: Array($0.prefix(MediaSniffer.prefixLength))) }
        if sniffed == nil { dropSource() }
    }
}

/// An upload stored under its final name, not yet linked to a message.
public struct StoredUpload: Sendable {
    public let fileID: String
    public let size: Int64
    /// The type the bytes show (images and videos), for uploads that do not name one.
    public let detectedType: String?
    public let thumbnails: [ThumbnailInfo]
}
