import Foundation
import ParleyCore
import S3Storage

#if canImport(Glibc)
    import Glibc
#endif

/// Where stored files live: under `root` as `<first two characters of the id>/<id>`, and
/// `<id>.t1`…`<id>.t3` beside it for its thumbnails; or, with an object store
/// (`PARLEY_FILE_STORE=s3`), as objects of those names, `root` then holding only uploads in
/// progress. Either way uploads in progress are sealed into `<root>/tmp` first. Several instances
/// may share the folder or the bucket: names are random and every write appears whole (a rename,
/// or an object put once complete). The bytes are sealed by Parley before they reach either: the
/// store never sees plaintext.
public struct FileStorage: Sendable {
    public let root: String
    /// The object store, when files live there.
    public let objects: S3Client?

    public init(root: String, objects: S3Client? = nil) throws {
        self.root = root
        self.objects = objects
        try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
    }

    /// A new, unguessable file id: 32 lowercase hex characters.
    static func newFileID() -> String {
        SecretHashing.randomHex(bytes: 16)
    }

    /// Whether `text` has the shape of a file id (anything else is not looked up).
    static func isFileID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// The name of the file (`thumbnail` nil) or of its thumbnail 1…3, relative to the root or
    /// the bucket.
    static func name(_ fileID: String, thumbnail: Int? = nil) -> String {
        "\(fileID.prefix(2))/\(fileID)" + (thumbnail.map { ".t\($0)" } ?? "")
    }

    /// The local path of that name.
    func path(_ fileID: String, thumbnail: Int? = nil) -> String {
        "\(root)/\(Self.name(fileID, thumbnail: thumbnail))"
    }

    /// A writer for the file (or thumbnail); `commit(_:)` puts it in place.
    func writer(_ fileID: String, thumbnail: Int? = nil, keyring: FileKeyring) throws -> EncryptedFileWriter {
        let temporary = "\(root)/tmp/\(fileID)\(thumbnail.map { ".t\($0)" } ?? "").\(FileStorage.newFileID()).part"
        guard objects == nil else {
            return try EncryptedFileWriter(fileID: fileID, temporaryPath: temporary, finalPath: nil, keyring: keyring)
        }
        try FileManager.default.createDirectory(atPath: "\(root)/\(fileID.prefix(2))", withIntermediateDirectories: true)
        return try EncryptedFileWriter(
            fileID: fileID, temporaryPath: temporary, finalPath: path(fileID, thumbnail: thumbnail), keyring: keyring)
    }

    /// Puts a finished file in place: renamed into the folder, or sent to the object store in
    /// parts read from its temporary file (memory holds one part) and the temporary removed.
    func commit(_ writer: EncryptedFileWriter, _ fileID: String, thumbnail: Int? = nil) async throws {
        guard let objects else { return try await BlockingWork.run { try writer.commit() } }
        let temporary = writer.temporaryPath
        defer { unlink(temporary) }
        try await BlockingWork.run { try writer.seal() }
        let source = try LocalSealedSource(path: temporary)
        try await objects.upload(Self.name(fileID, thumbnail: thumbnail), size: source.size) { offset, part in
            try await source.read(at: offset, into: &part)
        }
    }

    /// Opens the file (or thumbnail) for reading.
    func open(_ fileID: String, thumbnail: Int? = nil, keyring: FileKeyring) async throws -> EncryptedFileReader {
        let source: any SealedSource
        if let objects {
            source = try await ObjectSealedSource.open(objects, key: Self.name(fileID, thumbnail: thumbnail))
        } else {
            let path = path(fileID, thumbnail: thumbnail)
            source = try await BlockingWork.run { try LocalSealedSource(path: path) }
        }
        return try await EncryptedFileReader.open(source, fileID: fileID, keyring: keyring)
    }

    /// Deletes files and their thumbnails; missing ones are fine, and so is a store that fails
    /// now (the sweeper removes what is left without a row).
    func remove(_ fileIDs: [String]) async {
        let fileIDs = fileIDs.filter { Self.isFileID($0) }
        let names: [String] = fileIDs.flatMap { id in [nil, 1, 2, 3].map { Self.name(id, thumbnail: $0) } }
        if let objects {
            for name in names { try? await objects.delete(name) }
        } else {
            let root = root
            _ = try? await BlockingWork.run { for name in names { unlink("\(root)/\(name)") } }
        }
    }

    /// The ids of up to `limit` stored files, the first found (for checking the master key).
    func someFileIDs(limit: Int) async throws -> [String] {
        if let objects {
            let page = try await objects.list()
            return Array(page.objects.compactMap { Self.fileID(ofName: $0.key, thumbnails: false) }.prefix(limit))
        }
        let root = root
        return try await BlockingWork.run { LocalFiles(root: root).firstFileIDs(limit: limit) }
    }

    /// One page of the stored files last changed before `cutoff`, in name order after the name
    /// `after` ("" for the first): the ids they belong to, and the name the next page starts
    /// after (nil after the last). A bucket's page is one listing (1,000 names); the folder's,
    /// one of its subfolders.
    func storedPage(after: String, olderThan cutoff: Date) async throws -> (fileIDs: Set<String>, next: String?) {
        guard let objects else {
            let local = LocalFiles(root: root)
            return try await BlockingWork.run { local.folderPage(after: after, olderThan: cutoff) }
        }
        let page = try await objects.list(startAfter: after.isEmpty ? nil : after)
        let old = page.objects.filter { $0.lastModified < cutoff }
        return (Set(old.compactMap { Self.fileID(ofName: $0.key, thumbnails: true) }), page.next == nil ? nil : page.objects.last?.key)
    }

    /// Unfinished uploads (this instance's `<root>/tmp`) last changed before `cutoff`.
    func temporaryPaths(olderThan cutoff: Date) async throws -> [String] {
        let local = LocalFiles(root: root)
        return try await BlockingWork.run { local.temporaryPaths(modifiedBefore: cutoff) }
    }

    /// The file id a stored name belongs to (`ab/<id>`, or `ab/<id>.t1` with `thumbnails`).
    static func fileID(ofName name: String, thumbnails: Bool) -> String? {
        guard let last = name.split(separator: "/").last else { return nil }
        let parts = last.split(separator: ".")
        guard let id = parts.first, isFileID(id), parts.count == 1 || (thumbnails && parts.count == 2) else { return nil }
        return String(id)
    }
}

/// The local folder's listings (blocking: called on the blocking pool).
struct LocalFiles {
    let root: String

    /// The subfolders stored files live in (`ab/`), in name order; `tmp` holds uploads in progress.
    private var storedFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0 != "tmp" }.sorted()
    }

    /// The names in one of `storedFolders`.
    private func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? []
    }

    /// The ids of the first `limit` stored files found (not thumbnails).
    func firstFileIDs(limit: Int) -> [String] {
        var found: [String] = []
        for folder in storedFolders {
            for name in names(in: folder) {
                guard let id = FileStorage.fileID(ofName: name, thumbnails: false) else { continue }
                found.append(id)
                if found.count == limit { return found }
            }
        }
        return found
    }

    /// The stored files and thumbnails changed before `cutoff` in the first subfolder named after
    /// `after` (a subfolder's name), and that subfolder's name when others follow.
    func folderPage(after: String, olderThan cutoff: Date) -> (fileIDs: Set<String>, next: String?) {
        let folders = storedFolders.filter { $0 > after }
        guard let folder = folders.first else { return ([], nil) }
        let found = names(in: folder).filter { isOlder("\(root)/\(folder)/\($0)", than: cutoff) }
            .compactMap { FileStorage.fileID(ofName: $0, thumbnails: true) }
        return (Set(found), folders.count > 1 ? folder : nil)
    }

    /// Every stored file's and thumbnail's name (`ab/<id>`, `ab/<id>.t1`).
    func names() -> [String] {
        storedFolders.flatMap { folder in
            names(in: folder).filter { FileStorage.fileID(ofName: $0, thumbnails: true) != nil }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    /// Unfinished uploads changed before `cutoff`.
    func temporaryPaths(modifiedBefore cutoff: Date) -> [String] {
        let folder = "\(root)/tmp"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { "\(folder)/\($0)" }
            .filter { isOlder($0, than: cutoff) }
    }

    private func isOlder(_ path: String, than cutoff: Date) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date).map { $0 < cutoff } ?? false
    }
}
