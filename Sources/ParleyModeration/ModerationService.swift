import ParleyCore
import ParleyStore

/// Bans and mutes (API.md §7.1, §7.2) for both kinds of channel: imposed and lifted by the admin
/// or the channel's operators (never on another operator, except by the admin), each change with
/// its event to the channel and the user and its audit row, in one transaction.
public struct ModerationService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let channels: [ChannelKind: any ModeratedChannels]

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, channels: [ChannelKind: any ModeratedChannels]) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.channels = channels
    }

    /// Bans the user: a member leaves (a participant exits) at once, and they are refused on
    /// join, accept, enter and send until the ban ends.
    public func ban(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ new: NewRestriction) async throws -> Restriction {
        try await impose(.ban, caller, kind, channelURL, new)
    }

    /// Mutes the user (they read, but do not send); returns the channel as the caller reads it.
    public func mute(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ new: NewRestriction) async throws -> ChannelResource {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            _ = try Self.impose(.mute, caller, kind, channelURL, new, now: now, channel, repositories)
            return try channel.resource(channelURL, viewerID: caller.userID, repositories)
        }
    }

    private func impose(
        _ restriction: RestrictionKind, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ new: NewRestriction
    ) async throws -> Restriction {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            try Self.impose(restriction, caller, kind, channelURL, new, now: now, channel, repositories)
        }
    }

    private static func impose(
        _ restriction: RestrictionKind, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ new: NewRestriction,
        now: Int64, _ channel: any ModeratedChannels, _ repositories: Repositories
    ) throws -> Restriction {
        try NewRestriction.validate(seconds: new.seconds)
        if let agentID = new.agentID { try caller.requireActingAs(agentID) }
        let context = try channel.moderationContext(channelURL, caller, repositories)
        try requireMayModerate(new.userID, context, caller, channelURL)
        guard try !repositories.users.basicUsers([new.userID]).isEmpty else {
            throw ParleyError.unknownReference("User \"\(new.userID)\" not found.")
        }
        let actor = caller.userID ?? new.agentID
        guard let imposed = try repositories.table(restriction).impose(kind, channelURL, new, agentID: actor, now: now) else {
            throw ParleyError.unknownReference("User \"\(new.userID)\" not found.")
        }
        if restriction == .ban { try channel.remove(new.userID, from: channelURL, repositories) }
        repositories.events.append(
            NewEvent(
                restriction == .ban ? .userBanned : .userMuted, channelURL: channelURL, audience: .joinedMembers, userIDs: [new.userID],
                payload: .restriction(imposed), channelKind: kind))
        try repositories.auditLogs.append(
            NewAuditEntry(
                restriction == .ban ? .ban : .mute, actorID: actor, targetUserID: new.userID, channelKind: kind, channelURL: channelURL,
                details: ["seconds": String(new.seconds), "description": new.description]))
        return imposed
    }

    /// Changes how long a ban in force lasts (from now) and its description.
    public func updateBan(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, userID: String, seconds: Int64, description: String?
    ) async throws -> Restriction {
        try NewRestriction.validate(seconds: seconds)
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let context = try channel.moderationContext(channelURL, caller, repositories)
            try Self.requireMayModerate(userID, context, caller, channelURL)
            let endAt = NewRestriction.endAt(seconds: seconds, from: now)
            guard let changed = try repositories.bans.update(kind, channelURL, userID, endAt: endAt, description: description, now: now)
            else { throw Self.notRestricted(.ban, userID) }
            try repositories.auditLogs.append(
                NewAuditEntry(
                    .ban, actorID: caller.userID, targetUserID: userID, channelKind: kind, channelURL: channelURL,
                    details: ["seconds": String(seconds), "updated": "true"]))
            return changed
        }
    }

    /// Lifts a ban or a mute in force (404 when there is none).
    public func lift(_ restriction: RestrictionKind, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, userID: String)
        async throws
    {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        try await store.transaction { repositories in
            let context = try channel.moderationContext(channelURL, caller, repositories)
            try Self.requireMayModerate(userID, context, caller, channelURL)
            guard try repositories.table(restriction).lift(kind, channelURL, userID, now: now),
                let user = try repositories.users.basicUsers([userID]).first
            else { throw Self.notRestricted(restriction, userID) }
            repositories.events.append(
                NewEvent(
                    restriction == .ban ? .userUnbanned : .userUnmuted, channelURL: channelURL, audience: .joinedMembers, userIDs: [userID],
                    payload: .user(user), channelKind: kind))
            try repositories.auditLogs.append(
                NewAuditEntry(
                    restriction == .ban ? .unban : .unmute, actorID: caller.userID, targetUserID: userID, channelKind: kind,
                    channelURL: channelURL))
        }
    }

    /// One user's ban or mute in force, or nil (the caller must moderate the channel, or be
    /// that user).
    public func find(_ restriction: RestrictionKind, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, userID: String)
        async throws -> Restriction?
    {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let context = try channel.moderationContext(channelURL, caller, repositories)
            guard context.callerMayModerate || caller.userID == userID else { throw Self.moderatorsOnly(channelURL) }
            return try repositories.table(restriction).find(kind, channelURL, userID, now: now)
        }
    }

    /// A page of the channel's bans or mutes in force, and how many there are.
    public func list(
        _ restriction: RestrictionKind, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, limit: Int, pageToken: String?
    ) async throws -> (page: Page<Restriction>, total: Int) {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        let scope = "\(restriction.rawValue)s|\(kind.rawValue)|\(channelURL)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }
        let (rows, total) = try await store.transaction { repositories in
            let context = try channel.moderationContext(channelURL, caller, repositories)
            guard context.callerMayModerate else { throw Self.moderatorsOnly(channelURL) }
            let table = repositories.table(restriction)
            return (
                try table.list(kind, channelURL, afterUserID: after?.first, limit: limit + 1, now: now),
                try table.count(kind, channelURL, now: now)
            )
        }
        let page = rows.prefix(limit)
        let shown = Page(
            items: Array(page), positions: page.map { [$0.user.userID] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
        return (shown, total)
    }

    /// A user's channels with a ban or mute in force (the user themself or the admin).
    public func channels(
        _ restriction: RestrictionKind, of userID: String, _ caller: Caller, limit: Int, pageToken: String?
    ) async throws -> Page<RestrictedChannel> {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        let scope = "user-\(restriction.rawValue)s|\(userID)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        let channels = channels
        let rows = try await store.read { repositories in
            let rows = try repositories.table(restriction).channels(of: userID, after: after, limit: limit + 1, now: now)
            return try rows.compactMap { row -> (RestrictedChannel, [String])? in
                guard let channel = channels[row.kind] else { return nil }
                let view = try channel.resource(row.channelURL, viewerID: caller.isAdmin ? nil : userID, repositories)
                return (
                    RestrictedChannel(channel: view, startAt: row.startAt, endAt: row.endAt, description: row.description),
                    [row.kind.rawValue, row.channelURL]
                )
            }
        }
        let page = rows.prefix(limit)
        return Page(items: page.map(\.0), positions: page.map(\.1), more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    private func channel(_ kind: ChannelKind) throws -> any ModeratedChannels {
        guard let channel = channels[kind] else { throw ParleyError.routeNotFound }
        return channel
    }

    /// The admin, or an operator acting on someone who is not an operator.
    private static func requireMayModerate(_ userID: String, _ context: ModerationContext, _ caller: Caller, _ channelURL: String) throws {
        guard context.callerMayModerate else { throw moderatorsOnly(channelURL) }
        if !caller.isAdmin, try context.isOperator(userID) {
            throw ParleyError.forbidden("Operators cannot ban or mute other operators of \"\(channelURL)\".")
        }
    }

    private static func moderatorsOnly(_ channelURL: String) -> ParleyError {
        ParleyError.forbidden("Only operators of \"\(channelURL)\" may do this.")
    }

    /// Takes the user out of the channel now (a member leaves, a participant exits), free to come
    /// back: the profanity filter's kick (API.md §14.7).
    public func kick(_ kind: ChannelKind, _ channelURL: String, userID: String) async throws {
        let channel = try self.channel(kind)
        try await store.transaction { repositories in
            if kind == .group { try repositories.groupChannels.lock([channelURL]) }
            try channel.remove(userID, from: channelURL, repositories)
        }
    }

    private static func notRestricted(_ restriction: RestrictionKind, _ userID: String) -> ParleyError {
        ParleyError.notFound("\"\(userID)\" is not \(restriction == .ban ? "banned" : "muted") in this channel.")
    }
}

/// A channel where a user is banned or muted, with the ban or mute.
public struct RestrictedChannel: Sendable {
    public let channel: ChannelResource
    public let startAt: Int64
    public let endAt: Int64
    public let description: String
}

extension Repositories {
    fileprivate func table(_ restriction: RestrictionKind) -> ModerationRepository {
        restriction == .ban ? bans : mutes
    }
}
