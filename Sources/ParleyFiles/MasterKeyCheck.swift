/// Whether `PARLEY_FILE_KEY` opens the stored files (`parley doctor`): a restored or moved
/// deployment started with another key serves every download as an error.
public enum MasterKeyCheck: Sendable, Equatable {
    case noFiles
    /// Every file tried opened.
    case opens(checked: Int)
    /// This file's key does not unwrap: the master key is not the one it was stored with (or the
    /// file was tampered with).
    case fails(fileID: String, reason: String, checked: Int)
}

extension FileService {
    /// Opens up to `sample` stored files (the first found) with the configured master key.
    public func checkMasterKey(sample: Int = 5) async -> MasterKeyCheck {
        let (storage, keyring) = (storage, keyring)
        let check = try? await BlockingWork.run { () -> MasterKeyCheck in
            let fileIDs = storage.someFileIDs(limit: sample)
            guard !fileIDs.isEmpty else { return .noFiles }
            for (index, fileID) in fileIDs.enumerated() {
                do {
                    _ = try EncryptedFileReader(path: storage.path(fileID), fileID: fileID, keyring: keyring)
                } catch {
                    return .fails(fileID: fileID, reason: "\(error)", checked: index + 1)
                }
            }
            return .opens(checked: fileIDs.count)
        }
        return check ?? .fails(fileID: "-", reason: "the file threads are stopped", checked: 0)
    }
}
