import Foundation
import S3Storage

#if canImport(Glibc)
    import Glibc
#endif

/// `parley migrate-files`: moves the stored files (sealed as they are, thumbnails with them)
/// from the local folder to the object store or back. Each file is copied, checked by size,
/// then removed from where it was (unless kept), so a run stopped at any point is taken up by
/// running it again: what was moved is no longer at the source, and a file copied but not yet
/// removed is copied again over itself.
public struct FileMigration: Sendable {
    let folder: FileStorage
    let objects: S3Client

    public init(folder root: String, objects: S3Client) throws {
        self.folder = try FileStorage(root: root)
        self.objects = objects
    }

    /// Local files to the bucket; returns how many were moved.
    public func toObjectStore(keepSource: Bool, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        let root = folder.root
        let names = try await BlockingWork.run { LocalFiles(root: root).names() }
        try await objects.ensureBucket()
        for (index, name) in names.enumerated() {
            let source = try LocalSealedSource(path: "\(root)/\(name)")
            try await objects.upload(name, size: source.size) { offset, part in try await source.read(at: offset, into: &part) }
            guard try await objects.size(of: name) == source.size else { throw S3Error.malformed("\(name) arrived with another size") }
            if !keepSource { unlink("\(root)/\(name)") }
            progress(index + 1)
        }
        return names.count
    }

    /// Objects of the bucket to the local folder, each written whole under a temporary name and
    /// renamed into place; returns how many were moved.
    public func toFolder(keepSource: Bool, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        var moved = 0
        var continuation: String?
        repeat {
            // Continuation tokens name the key to go on after, so removing the page's objects
            // does not shift the next page.
            let page = try await objects.list(after: continuation)
            for object in page.objects where FileStorage.fileID(ofName: object.key, thumbnails: true) != nil {
                try await copyToFolder(object)
                if !keepSource { try await objects.delete(object.key) }
                moved += 1
                progress(moved)
            }
            continuation = page.next
        } while continuation != nil
        return moved
    }

    private func copyToFolder(_ object: S3Client.Object) async throws {
        let (root, name) = (folder.root, object.key)
        let temporary = "\(root)/tmp/migrate-\(FileStorage.newFileID()).part"
        let final = "\(root)/\(name)"
        try FileManager.default.createDirectory(atPath: (final as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw FileStorageError.io("creating \(temporary)", errno)
        }
        defer { unlink(temporary) }
        var offset: Int64 = 0
        while offset < object.size {
            let window = try await objects.get(name, range: offset..<min(object.size, offset + Int64(objects.settings.readWindow)))
            try handle.write(contentsOf: window.bytes)
            offset += Int64(window.bytes.count)
        }
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, final) == 0 else { throw FileStorageError.io("renaming to \(final)", errno) }
        try EncryptedFileWriter.syncFolder(of: final)
    }
}
