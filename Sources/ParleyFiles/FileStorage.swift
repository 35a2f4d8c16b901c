import Foundation
import ParleyCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where stored files live: `<root>/<first two characters of the id>/<id>` for a file and
/// `<id>.t1`…`<id>.t3` beside it for its thumbnails; uploads in progress in `<root>/tmp`.
/// Several instances may share the folder: names are random and writes are atomic renames.
public struct FileStorage: Sendable {
    public let root: String

    public init(root: String) throws {
        self.root = root
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

    /// The path of the file (`thumbnail` nil) or of its thumbnail 1…3.
    func path(_ fileID: String, thumbnail: Int? = nil) -> String {
        "\(root)/\(fileID.prefix(2))/\(fileID)" + (thumbnail.map { ".t\($0)" } ?? "")
    }

    /// A writer whose `commit` puts the file (or thumbnail) in place.
    func writer(_ fileID: String, thumbnail: Int? = nil, keyring: FileKeyring) throws -> EncryptedFileWriter {
        let finalPath = path(fileID, thumbnail: thumbnail)
        try FileManager.default.createDirectory(atPath: "\(root)/\(fileID.prefix(2))", withIntermediateDirectories: true)
        let temporary = "\(root)/tmp/\(fileID)\(thumbnail.map { ".t\($0)" } ?? "").\(FileStorage.newFileID()).part"
        return try EncryptedFileWriter(fileID: fileID, temporaryPath: temporary, finalPath: finalPath, keyring: keyring)
    }

    /// Deletes a file and its thumbnails; missing ones are fine.
    func remove(_ fileID: String) {
        guard Self.isFileID(fileID) else { return }
        unlink(path(fileID))
        for thumbnail in 1...3 { unlink(path(fileID, thumbnail: thumbnail)) }
    }

    /// The ids of up to `limit` stored files, the first found (for checking the master key).
    func someFileIDs(limit: Int) -> [String] {
        var found: [String] = []
        let manager = FileManager.default
        for folder in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where folder != "tmp" {
            for name in (try? manager.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? [] where Self.isFileID(name) {
                found.append(name)
                if found.count == limit { return found }
            }
        }
        return found
    }

    /// Stored files and temporary files last changed before `cutoff`: the sweeper's candidates.
    func entries(olderThan cutoff: Date) -> (fileIDs: Set<String>, temporaryPaths: [String]) {
        let manager = FileManager.default
        var fileIDs = Set<String>()
        var temporary: [String] = []
        func isOld(_ path: String) -> Bool {
            ((try? manager.attributesOfItem(atPath: path)[.modificationDate]) as? Date).map { $0 < cutoff } ?? false
        }
        for folder in (try? manager.contentsOfDirectory(atPath: root)) ?? [] {
            let folderPath = "\(root)/\(folder)"
            for name in (try? manager.contentsOfDirectory(atPath: folderPath)) ?? [] {
                let path = "\(folderPath)/\(name)"
                if folder == "tmp" {
                    if isOld(path) { temporary.append(path) }
                } else if let id = name.split(separator: ".").first, Self.isFileID(id), isOld(path) {
                    fileIDs.insert(String(id))
                }
            }
        }
        return (fileIDs, temporary)
    }
}
