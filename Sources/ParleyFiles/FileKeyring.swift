import Crypto
import Foundation

/// The master key (`PARLEY_FILE_KEY`) as it wraps stored files: each file's data key is random
/// and stored wrapped (sealed) by the master key, so rotating storage never needs the master key
/// in a file, and a stolen disk without it reveals nothing. (What else is derived from the master
/// key is in `ServerKeys`.)
public struct FileKeyring: Sendable {
    let masterKey: SymmetricKey

    /// `masterKey` must be 32 bytes.
    public init(masterKey: [UInt8]) throws {
        guard masterKey.count == 32 else { throw FileStorageError.badMasterKey }
        self.masterKey = SymmetricKey(data: masterKey)
    }

    /// A fresh random data key.
    func newDataKey() -> SymmetricKey {
        SymmetricKey(size: .bits256)
    }

    /// The data key sealed for storage, bound to the file id and the header.
    func wrap(_ dataKey: SymmetricKey, fileID: String, headerPrefix: [UInt8]) throws -> [UInt8] {
        let sealed = try dataKey.withUnsafeBytes { keyBytes in
            try AES.GCM.seal(keyBytes, using: masterKey, authenticating: Array(fileID.utf8) + headerPrefix)
        }
        guard let combined = sealed.combined, combined.count == EncryptedFileFormat.wrappedKeySize else {
            throw FileStorageError.corrupt("the wrapped key has the wrong size")
        }
        return Array(combined)
    }

    /// The data key of a stored file; throws when the wrapping was not made for this file.
    func unwrap(_ wrapped: [UInt8], fileID: String, headerPrefix: [UInt8]) throws -> SymmetricKey {
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped)
            return SymmetricKey(data: try AES.GCM.open(box, using: masterKey, authenticating: Array(fileID.utf8) + headerPrefix))
        } catch {
            throw FileStorageError.corrupt("the data key does not unwrap (wrong master key or a tampered header)")
        }
    }
}

/// Storage failures; none of them is the client's fault.
public enum FileStorageError: Error, CustomStringConvertible {
    case badMasterKey
    case corrupt(String)
    case io(String, Int32)

    public var description: String {
        switch self {
        case .badMasterKey: "PARLEY_FILE_KEY must be 32 bytes, base64-encoded."
        case .corrupt(let reason): "A stored file failed its integrity check: \(reason)."
        case .io(let operation, let code): "\(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}
