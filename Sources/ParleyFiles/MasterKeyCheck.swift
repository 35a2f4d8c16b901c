/// Whether `PARLEY_FILE_KEY` opens the stored files (`parley doctor`, and `parley serve` at
/// start): a restored or moved deployment started with another key would answer every download
/// with an error and store new files under a key the old ones do not share.
public struct MasterKeyCheck: Sendable, Equatable {
    /// Files tried.
    public var checked = 0
    /// Those whose key did not unwrap (another master key, or a damaged file), with the reason.
    public var failures: [Failure] = []

    public struct Failure: Sendable, Equatable {
        public let fileID: String
        public let reason: String
    }

    /// Files were tried and none opened: the key is not the one they were stored with.
    public var isWrongKey: Bool { checked > 0 && failures.count == checked }
}

extension FileService {
    /// Opens up to `sample` stored files (the first found) with the configured master key.
    public func checkMasterKey(sample: Int = 5) async -> MasterKeyCheck {
        let fileIDs: [String]
        do {
            fileIDs = try await storage.someFileIDs(limit: sample)
        } catch {
            return MasterKeyCheck(checked: 1, failures: [.init(fileID: "-", reason: "the stored files cannot be listed: \(error)")])
        }
        var check = MasterKeyCheck()
        for fileID in fileIDs {
            check.checked += 1
            do {
                _ = try await storage.open(fileID, keyring: keyring)
            } catch {
                check.failures.append(.init(fileID: fileID, reason: "\(error)"))
            }
        }
        return check
    }
}
