import Hummingbird
import ParleyCore
import ParleyFiles
import Synchronization

/// How this request's responses write file URLs (API.md §5.2): absolute, on the public address,
/// and for a session caller with `?auth=` and their own file auth key. A task-local, because
/// messages reach responses through many DTOs (a message, a page, a channel's last message) that
/// should not each carry the caller. The key is signed only when a response has a file to link.
final class FileLinks: Sendable {
    @TaskLocal static var current: FileLinks?

    let baseURL: String
    private let keys: FileAuthKeys?
    private let userID: String?
    private let now: Int64
    private let issuedKey = Mutex<String?>(nil)

    init(baseURL: String, keys: FileAuthKeys?, userID: String?, now: Int64) {
        self.baseURL = baseURL
        self.keys = keys
        self.userID = userID
        self.now = now
    }

    /// `url` and `plain_url` of the stored file (thumbnail nil) or of a thumbnail.
    func urls(fileID: String, thumbnail: Int? = nil, requireAuth: Bool) -> (url: String, plain: String) {
        let plain = baseURL + "/v3/files/" + fileID + (thumbnail.map { "/thumbnails/\($0)" } ?? "")
        guard requireAuth, let key = authKey() else { return (plain, plain) }
        return (plain + "?auth=" + key, plain)
    }

    private func authKey() -> String? {
        guard let keys, let userID else { return nil }
        return issuedKey.withLock { key in
            if key == nil { key = keys.issue(userID: userID, now: now).auth }
            return key
        }
    }
}

/// Makes the `FileLinks` of each authenticated request (set by `AuthenticationMiddleware`).
struct FileLinkIssuer: Sendable {
    let baseURL: String
    let keys: FileAuthKeys
    let clock: Clock
    /// The admin's links never carry a key, so every admin request shares one.
    private let adminLinks: FileLinks

    init(baseURL: String, keys: FileAuthKeys, clock: Clock) {
        self.baseURL = baseURL
        self.keys = keys
        self.clock = clock
        self.adminLinks = FileLinks(baseURL: baseURL, keys: nil, userID: nil, now: 0)
    }

    func links(for caller: Caller) -> FileLinks {
        guard let userID = caller.userID else { return adminLinks }
        return FileLinks(baseURL: baseURL, keys: keys, userID: userID, now: clock.nowMillis)
    }
}
