import Foundation
import Testing

/// What the file suites share: a channel to send files to, and the files stored in a folder.
protocol FileFixtures {}

extension FileFixtures {
    /// Two members and an outsider; a channel of the first two.
    func setUp(_ api: API, _ prefix: String) async throws -> (users: Cast, url: String) {
        let users = try await api.cast(prefix, 3)
        let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
        return (users, url)
    }

    static func files(in folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }
    }
}
