import Foundation
import ParleyCore

/// Files the server writes itself (a GDPR access archive, API.md §14.1): stored encrypted like
/// uploads, in the same storage, but with no size limit, no thumbnails and no message; whoever
/// links them (a finished job's result) decides who may read them.
extension FileService {
    /// Writes a new stored file through `write`, which hands its bytes to the sink in pieces;
    /// returns its id and size. A failure leaves nothing behind.
    public func storeGenerated(_ write: (GeneratedFileSink) async throws -> Void) async throws -> (fileID: String, size: Int64) {
        let fileID = FileStorage.newFileID()
        let sink = GeneratedFileSink(writer: try storage.writer(fileID, keyring: keyring))
        do {
            try await write(sink)
            try await storage.commit(sink.writer, fileID)
        } catch {
            sink.writer.abort()
            throw error
        }
        return (fileID, sink.writer.plaintextSize)
    }

    /// Opens a generated file for a caller the linking resource has authorised.
    public func openGenerated(_ fileID: String, name: String, contentType: String) async throws -> FileDownload {
        guard FileStorage.isFileID(fileID) else { throw Self.notFound }
        do {
            let reader = try await storage.open(fileID, keyring: keyring)
            return FileDownload(name: name, contentType: contentType, etag: "\"\(fileID)\"", reader: reader)
        } catch {
            throw Self.notFound
        }
    }

    /// Reads a stored upload whole, a chunk at a time, for the server itself (an access archive
    /// copies the user's files); nil when it is gone.
    public func readStored(_ fileID: String, _ consume: (Data) async throws -> Void) async throws -> Bool {
        guard FileStorage.isFileID(fileID) else { return false }
        guard let reader = try? await storage.open(fileID, keyring: keyring) else { return false }
        try await reader.read(0..<reader.plaintextSize, firstChunk: nil, consume)
        return true
    }
}

/// Where a generated file's bytes go (encrypted as they come). Unchecked: one task writes it,
/// one piece at a time (each on the blocking pool, awaited before the next), as `FileUpload`.
public final class GeneratedFileSink: @unchecked Sendable {
    let writer: EncryptedFileWriter

    init(writer: EncryptedFileWriter) {
        self.writer = writer
    }

    public func write(_ bytes: Data) async throws {
        try await BlockingWork.run { try bytes.withUnsafeBytes { try self.writer.append($0) } }
    }
}
