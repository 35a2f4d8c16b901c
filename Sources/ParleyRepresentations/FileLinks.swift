import ParleyCore
import ParleyFiles
import ParleyUsers
import Synchronization

/// How this request's responses write file URLs (API.md §5.2): absolute, on the public address,
/// and for a session caller with `?auth=` and their own file auth key. A task-local, because
/// messages reach responses through many DTOs (a message, a page, a channel's last message) that
/// should not each carry the caller. The key is signed only when a response has a file to link.
public final class FileLinks: Sendable {
    @TaskLocal public static var current: FileLinks?

    public let baseURL: String
    private let keys: FileAuthKeys?
    /// The user whose key links carry, and their key generation.
    private let holder: (userID: String, generation: Int64)?
    private let now: Int64
    private let issuedKey = Mutex<String?>(nil)

    public init(baseURL: String, keys: FileAuthKeys?, holder: (userID: String, generation: Int64)?, now: Int64) {
        self.baseURL = baseURL
        self.keys = keys
        self.holder = holder
        self.now = now
    }

    /// `url` and `plain_url` of the stored file (thumbnail nil) or of a thumbnail.
    public func urls(fileID: String, thumbnail: Int? = nil, requireAuth: Bool) -> (url: String, plain: String) {
        let plain = FileURLs.plain(baseURL: baseURL, fileID: fileID, thumbnail: thumbnail)
        guard requireAuth, let key = authKey() else { return (plain, plain) }
        return (FileURLs.authorized(plain, auth: key), plain)
    }

    private func authKey() -> String? {
        guard let keys, let holder else { return nil }
        return issuedKey.withLock { key in
            if key == nil { key = keys.issue(userID: holder.userID, generation: holder.generation, now: now).auth }
            return key
        }
    }
}

/// Makes the `FileLinks` of each authenticated request (set by `AuthenticationMiddleware`).
public struct FileLinkIssuer: Sendable {
    let baseURL: String
    let keys: FileAuthKeys
    let clock: Clock
    /// The admin's links never carry a key, so every admin request shares one.
    private let adminLinks: FileLinks

    public init(baseURL: String, keys: FileAuthKeys, clock: Clock) {
        self.baseURL = baseURL
        self.keys = keys
        self.clock = clock
        self.adminLinks = FileLinks(baseURL: baseURL, keys: nil, holder: nil, now: 0)
    }

    public func links(for authentication: Authentication) -> FileLinks {
        guard let userID = authentication.caller.userID, let generation = authentication.fileKeyGeneration else { return adminLinks }
        return FileLinks(baseURL: baseURL, keys: keys, holder: (userID, generation), now: clock.nowMillis)
    }
}
