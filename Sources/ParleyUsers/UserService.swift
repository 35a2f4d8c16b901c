import ParleyCore
import ParleyStore

/// A new user as `POST /v3/users` describes it.
public struct NewUser: Sendable {
    public var user: User
    public var issueSessionToken: Bool

    public init(user: User, issueSessionToken: Bool) {
        self.user = user
        self.issueSessionToken = issueSessionToken
    }

    /// A new user from a request's fields, each checked (API.md §2.2); for the HTTP API and the CLI.
    public static func checked(
        userID: String, nickname: String, profileURL: String?, metadata: [String: String]?, issueSessionToken: Bool
    ) throws -> NewUser {
        let user = User(
            userID: try Validation.userID(userID),
            nickname: try Validation.text(nickname, field: "nickname", max: Validation.maxNicknameLength),
            profileURL: try Validation.text(profileURL ?? "", field: "profile_url", max: Validation.maxProfileURLLength),
            createdAt: 0,
            metadata: try Validation.metadata(metadata ?? [:])
        )
        return NewUser(user: user, issueSessionToken: issueSessionToken)
    }
}

/// A user as one caller may see them: the whole resource for the admin and the user themself,
/// the public fields for everyone else (API.md §2.2).
public struct UserView: Sendable {
    public let user: User
    public let isFull: Bool
}

/// The rules of API.md §2.2–2.4 for users and their session tokens. Each method takes the acting
/// caller first and checks what they may do before touching anything.
public struct UserService: Sendable {
    private let store: Store
    private let clock: Clock
    private let limits: Limits
    private let pageTokens: PageTokenCodec
    private let departure: any ChannelDeparture

    public init(store: Store, clock: Clock, limits: Limits, pageTokens: PageTokenCodec, departure: any ChannelDeparture) {
        self.store = store
        self.clock = clock
        self.limits = limits
        self.pageTokens = pageTokens
        self.departure = departure
    }

    public func create(_ caller: Caller, _ request: NewUser) async throws -> (User, IssuedSessionToken?) {
        try caller.requireAdmin()
        var newUser = request.user
        newUser.createdAt = clock.nowMillis
        let user = newUser
        let now = user.createdAt
        let expiresAt = now + limits.sessionTokenLifetimeMillis
        return try await store.transaction { repositories in
            try repositories.users.insert(user)
            try repositories.userMetadata(user.userID).upsert(user.metadata)
            let token =
                request.issueSessionToken
                ? try Authenticator.issue(for: user.userID, expiresAt: expiresAt, now: now, in: repositories)
                : nil
            return (user, token)
        }
    }

    /// A page of users in user_id order. Anyone signed in may list; only the admin sees private fields.
    public func list(_ caller: Caller, filter: UserFilter, limit: Int, pageToken: String?) async throws -> Page<UserView> {
        let scope = "users|\(filter.userIDs?.joined(separator: ",") ?? "")|\(filter.nicknameStartsWith ?? "")|\(filter.activeMode)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }
        guard after == nil || after?.count == 1 else { throw ParleyError.invalidPageToken }
        let users = try await store.replicaRead { try $0.users.list(filter, after: after?.first, limit: limit + 1) }
        let items = users.prefix(limit).map { UserView(user: $0, isFull: caller.mayActAs($0.userID)) }
        return Page(
            items: Array(items), positions: items.map { [$0.user.userID] }, more: users.count > limit, tokens: pageTokens, scope: scope)
    }

    public func get(_ caller: Caller, _ userID: String) async throws -> UserView {
        let user = try await store.replicaFetch(UserRepository.lookup(userID))
        guard let user else { throw Self.notFound(userID) }
        return UserView(user: user, isFull: caller.mayActAs(userID))
    }

    /// Admin, or the user themself for anything but `is_active`.
    public func update(_ caller: Caller, _ userID: String, _ update: UserUpdate) async throws -> User {
        try caller.requireActingAs(userID)
        if update.isActive != nil { try caller.requireAdmin() }
        let leavesAll = update.isActive == false && update.leaveAllWhenDeactivated
        return try await store.changingUser(userID, lockingChannels: leavesAll) { repositories in
            if update.isActive == false {
                // A deactivated user is signed out everywhere: reactivation must not bring back
                // their old session tokens or file auth keys.
                try repositories.sessionTokens.revokeAll(userID: userID)
                try repositories.files.revokeKeys(userID: userID)
                Self.endSessions(userID, repositories)
                try repositories.auditLogs.append(NewAuditEntry(.userDeactivated, actorID: nil, targetUserID: userID))
            }
            if leavesAll { try departure.leaveAll(userID, repositories) }
            try repositories.users.update(userID, update)
            return try repositories.users.find(userID)!
        }
    }

    public func delete(_ caller: Caller, _ userID: String) async throws {
        try caller.requireAdmin()
        try await store.changingUser(userID, lockingChannels: true) { repositories in
            // Leaving first keeps the channels' member counts and distinctness right.
            try departure.leaveAll(userID, repositories)
            _ = try repositories.users.delete(userID)
            Self.endSessions(userID, repositories)
        }
    }

    /// Issues a session token (admin only); `expiresAt` must lie in the future.
    public func issueSessionToken(_ caller: Caller, _ userID: String, expiresAt: Int64?) async throws -> IssuedSessionToken {
        try caller.requireAdmin()
        let now = clock.nowMillis
        let expiresAt = expiresAt ?? now + limits.sessionTokenLifetimeMillis
        guard expiresAt > now else { throw ParleyError.invalidValue("expires_at", "must be in the future") }
        return try await store.changingUser(userID) { repositories in
            try Authenticator.issue(for: userID, expiresAt: expiresAt, now: now, in: repositories)
        }
    }

    /// Revokes every session token of the user (the admin, or the user signing out everywhere),
    /// and with them the user's file auth keys.
    public func revokeSessionTokens(_ caller: Caller, _ userID: String) async throws {
        try caller.requireActingAs(userID)
        try await store.changingUser(userID) { repositories in
            try repositories.sessionTokens.deleteAll(userID: userID)
            try repositories.files.revokeKeys(userID: userID)
            Self.endSessions(userID, repositories)
        }
    }

    /// The user's open event streams check their tokens (and close, 4001, when they fail).
    static func endSessions(_ userID: String, _ repositories: Repositories) {
        repositories.events.append(NewEvent(.sessionEnded, channelURL: nil, audience: .users, userIDs: [userID]))
    }

    public func invitationPreference(_ caller: Caller, _ userID: String) async throws -> Bool {
        try caller.requireActingAs(userID)
        return try await store.readingUser(userID) { try $0.invitationPreferences.autoAccept(userID) }
    }

    public func setInvitationPreference(_ caller: Caller, _ userID: String, autoAccept: Bool) async throws -> Bool {
        try caller.requireActingAs(userID)
        return try await store.changingUser(userID) { repositories in
            try repositories.invitationPreferences.setAutoAccept(userID, autoAccept)
            return autoAccept
        }
    }

    /// The application's default for users who have not set theirs (API.md §14.7).
    public func defaultInvitationPreference(_ caller: Caller) async throws -> Bool {
        try caller.requireAdmin()
        return try await store.read { try $0.invitationPreferences.defaultAutoAccept() }
    }

    public func setDefaultInvitationPreference(_ caller: Caller, autoAccept: Bool) async throws -> Bool {
        try caller.requireAdmin()
        try await store.transaction { try $0.invitationPreferences.setDefaultAutoAccept(autoAccept) }
        return autoAccept
    }

    static func notFound(_ userID: String) -> ParleyError {
        ParleyError.notFound("User \"\(userID)\" not found.")
    }
}
