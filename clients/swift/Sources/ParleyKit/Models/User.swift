/// A user as others see them (the server's basic user, with presence where the answer has it).
public struct User: Sendable, Equatable, Hashable, Codable {
    public let userId: String
    public var nickname: String
    public var profileURL: String
    public var isActive: Bool?
    /// Whether the user has an event stream open on any instance (user and member lists).
    public var isOnline: Bool?
    /// When their last socket closed (ms); 0 while online.
    public var lastSeenAt: Int64?
    /// True when the signed-in user blocks this one (a message's sender).
    public var isBlockedByMe: Bool?
    public var metadata: [String: String]?

    public init(userId: String, nickname: String = "", profileURL: String = "") {
        self.userId = userId
        self.nickname = nickname
        self.profileURL = profileURL
    }
}

/// A member of a group channel, with their state in it.
public struct Member: Sendable, Equatable, Codable {
    public let userId: String
    public var nickname: String
    public var profileURL: String
    public var isActive: Bool?
    public var isOnline: Bool?
    public var lastSeenAt: Int64?
    /// `joined` or `invited`.
    public var state: String?
    /// `operator` or empty.
    public var role: String?
    public var isMuted: Bool?
    public var isBlockedByMe: Bool?
}
