import ParleyCore
import ParleyModeration
import ParleyStore

/// Who is in an open channel (API.md §8.3): entering and exiting over REST and the event
/// stream, the participant list, and the end of participations nothing holds any more.
///
/// Every change locks the channel row first, so the cap is exact across instances and
/// `participant_count` always equals the list's size.
public struct ParticipantService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let settings: ChatSettings

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, settings: ChatSettings) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.settings = settings
    }

    /// Enters the user (their own enter, or the admin's for them). `bySocket`: the enter frame
    /// of one of the user's sockets, which then holds it; an enter over REST holds for
    /// `openChannelEnterHoldMillis` too (2 minutes). Entering again renews and announces nothing.
    public func enter(_ caller: Caller, _ channelURL: String, userID: String, bySocket: Bool = false) async throws -> OpenChannel {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        let cap = settings.limits.openChannelParticipants
        return try await store.transaction { repositories in
            guard let record = try repositories.openChannels.find(channelURL, forUpdate: true) else {
                throw ChannelAccess.notFound(channelURL)
            }
            try requireUsersExist([userID], repositories)
            try ModerationRules.requireNotBanned([userID], .open, channelURL, now: now, repositories)
            if record.participantCount >= cap, !(try repositories.participants.isParticipant(channelURL, userID)) {
                throw ParleyError.channelFull(channelURL, cap: cap)
            }
            let hold = bySocket ? nil : settings.limits.openChannelEnterHoldMillis
            if try repositories.participants.enter(channelURL, userID, holdMillis: hold, now: now) {
                ChannelEvents.channel(
                    .participantEntered, channelURL, kind: .open, payload: .users(try repositories.users.basicUsers([userID])),
                    repositories)
            }
            return try OpenChannelService.channel(channelURL, repositories)
        }
    }

    /// The user leaves the channel (nothing when they were not in it).
    public func exit(_ caller: Caller, _ channelURL: String, userID: String) async throws {
        try caller.requireActingAs(userID)
        try await store.transaction { repositories in
            guard try repositories.openChannels.find(channelURL, forUpdate: true) != nil else { throw ChannelAccess.notFound(channelURL) }
            try Self.exit(channelURL, [userID], repositories)
        }
    }

    /// A page of participants in user id order.
    public func list(_ caller: Caller, _ channelURL: String, limit: Int, pageToken: String?) async throws -> Page<Participant> {
        let scope = "participants|\(channelURL)"
        let after = try pageToken.map { token -> String in
            guard let userID = try pageTokens.decode(token, scope: scope).first else { throw ParleyError.invalidPageToken }
            return userID
        }
        let now = clock.nowMillis
        let rows = try await store.read { repositories in
            try ChannelContext.load(.open, channelURL, caller, repositories, forUpdate: false).requireReadContent(now: now, repositories)
            return try repositories.participants.list(channelURL, afterUserID: after, limit: limit + 1, now: now)
        }
        let page = Array(rows.prefix(limit))
        return Page(items: page, positions: page.map { [$0.user.userID] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    /// Takes users out of a channel whose row the caller has locked, telling the participants
    /// and the users themselves.
    static func exit(_ channelURL: String, _ userIDs: [String], onlyLapsed: Bool = false, _ repositories: Repositories) throws {
        let gone = try repositories.participants.exit(channelURL, userIDs, onlyLapsed: onlyLapsed)
        guard !gone.isEmpty else { return }
        ChannelEvents.channel(
            .participantExited, channelURL, kind: .open, payload: .users(try repositories.users.basicUsers(gone)), alsoTo: gone,
            repositories)
    }

    /// The user leaves every open channel (deactivation, deletion), channels locked in order.
    static func exitAll(_ userID: String, _ repositories: Repositories) throws {
        for channelURL in try repositories.participants.channels(of: userID) {
            guard try repositories.openChannels.find(channelURL, forUpdate: true) != nil else { continue }
            try exit(channelURL, [userID], repositories)
        }
    }
}

extension ParticipantService: ParticipationSweep {
    public func endLapsed(userIDs: [String]?, _ repositories: Repositories) throws {
        for lapsed in try repositories.participants.lapsed(userIDs: userIDs) {
            guard try repositories.openChannels.find(lapsed.channelURL, forUpdate: true) != nil else { continue }
            // Checked again under the lock, in the delete: a user may have reconnected or entered since.
            try Self.exit(lapsed.channelURL, lapsed.userIDs, onlyLapsed: true, repositories)
        }
    }
}
