/// A user of the chat platform (API.md §2.1).
public struct User: Sendable, Equatable {
    public var userID: String
    public var nickname: String
    public var profileURL: String
    public var isActive: Bool
    /// Whether the user holds an event stream socket (API.md §6.5).
    public var isOnline: Bool
    /// When their last socket closed; 0 while online or never connected.
    public var lastSeenAt: Int64
    public var createdAt: Int64
    public var metadata: [String: String]

    public init(
        userID: String, nickname: String, profileURL: String, isActive: Bool = true, isOnline: Bool = false,
        lastSeenAt: Int64 = 0, createdAt: Int64, metadata: [String: String] = [:]
    ) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.isActive = isActive
        self.isOnline = isOnline
        self.lastSeenAt = isOnline ? 0 : lastSeenAt
        self.createdAt = createdAt
        self.metadata = metadata
    }
}

/// A change to a user's profile; nil fields stay as they are.
public struct UserUpdate: Sendable, Equatable {
    public var nickname: String?
    public var profileURL: String?
    public var isActive: Bool?
    public var leaveAllWhenDeactivated: Bool

    public init(nickname: String? = nil, profileURL: String? = nil, isActive: Bool? = nil, leaveAllWhenDeactivated: Bool = true) {
        self.nickname = nickname
        self.profileURL = profileURL
        self.isActive = isActive
        self.leaveAllWhenDeactivated = leaveAllWhenDeactivated
    }
}

/// Which users a listing returns (`active_mode`).
public enum ActiveMode: String, Sendable, CaseIterable {
    case activated, deactivated, all
}

/// The filters of `GET /v3/users`.
public struct UserFilter: Sendable, Equatable {
    public var userIDs: [String]?
    public var nicknameStartsWith: String?
    public var activeMode: ActiveMode

    public init(userIDs: [String]? = nil, nicknameStartsWith: String? = nil, activeMode: ActiveMode = .activated) {
        self.userIDs = userIDs
        self.nicknameStartsWith = nicknameStartsWith
        self.activeMode = activeMode
    }
}

/// A session token as issued: the secret is shown once and stored only as a hash.
public struct IssuedSessionToken: Sendable, Equatable {
    public let userID: String
    public let token: String
    public let expiresAt: Int64

    public init(userID: String, token: String, expiresAt: Int64) {
        self.userID = userID
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// One page of a keyset-paginated list; `next` is "" at the end (API.md §1.6).
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    public let next: String
    /// The token that goes on right after `items[index]`: where an answer its byte budget cut
    /// short (issue 50.2) tells the client to continue, so that nothing is skipped. Nil for a
    /// list whose items are few and small (nothing is cut from it).
    public let resume: (@Sendable (Int) -> String)?

    public init(items: [Item], next: String, resume: (@Sendable (Int) -> String)? = nil) {
        self.items = items
        self.next = next
        self.resume = resume
    }

    /// A page of a keyset list read one past `limit` (`more`: there was one more), each item at
    /// its keyset `positions[i]`, in tokens signed for `scope`.
    public init(items: [Item], positions: [[String]], more: Bool, tokens: PageTokenCodec, scope: String) {
        self.items = items
        self.next = more && !positions.isEmpty ? tokens.encode(scope: scope, position: positions[positions.count - 1]) : ""
        self.resume = { tokens.encode(scope: scope, position: positions[$0]) }
    }
}
