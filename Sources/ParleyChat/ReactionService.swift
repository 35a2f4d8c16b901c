import ParleyCore
import ParleyStore

/// Reactions on messages (API.md §4.6): joined members (an open channel's participants) react
/// for themselves.
public struct ReactionService: Sendable {
    let store: Store
    let clock: Clock
    let limits: Limits

    public static let maxReactionLength = 128

    public init(store: Store, clock: Clock, limits: Limits) {
        self.store = store
        self.clock = clock
        self.limits = limits
    }

    public func add(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, userID: String, reaction: String)
        async throws -> Int64
    {
        try caller.requireActingAs(userID)
        let (now, limits) = (clock.nowMillis, limits)
        return try await store.transaction { repositories in
            let message = try Self.reactable(kind, channelURL, messageID, userID: userID, caller, contributingAt: now, repositories)
            // The application's emoji set and reaction settings (API.md §14.6).
            let allowed = try repositories.emojis.reactionCheck(reaction)
            try allowed.settings.check(reaction, setDefined: allowed.setDefined, keyInSet: allowed.keyInSet)
            // Locked so that concurrent reactions cannot pass the limits together.
            try repositories.messages.lock(channelURL, messageID)
            try repositories.reactions.standing(messageID, reaction: reaction, userID: userID).requireRoom(limits)
            let updatedAt = try repositories.reactions.add(messageID, reaction: reaction, userID: userID, now: now)
            let payload = EventPayload.reaction(messageID: messageID, key: reaction, userID: userID, added: true)
            ChannelEvents.channel(.reactionUpdated, channelURL, kind: kind, payload: payload, except: message.hiddenFrom, repositories)
            return updatedAt
        }
    }

    public func remove(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, userID: String, reaction: String)
        async throws
    {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        try await store.transaction { repositories in
            let message = try Self.reactable(kind, channelURL, messageID, userID: userID, caller, repositories)
            guard try repositories.reactions.remove(messageID, reaction: reaction, userID: userID, now: now) else {
                throw ParleyError.notFound("\"\(userID)\" has no reaction \"\(reaction)\" on message \(messageID).")
            }
            let payload = EventPayload.reaction(messageID: messageID, key: reaction, userID: userID, added: false)
            ChannelEvents.channel(.reactionUpdated, channelURL, kind: kind, payload: payload, except: message.hiddenFrom, repositories)
        }
    }

    public func list(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64) async throws -> [Reaction] {
        let now = clock.nowMillis
        return try await store.read { repositories in
            let context = try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false)
            try context.requireReadContent(now: now, repositories)
            guard let message = try repositories.messages.find(channelURL, messageID, viewerID: caller.userID), !message.isRemoved else {
                throw MessageService.notFound(messageID)
            }
            return try repositories.reactions.reactions([message.messageID])[message.messageID] ?? []
        }
    }

    /// The message, when the channel is visible, the message is there for the reacting user, and
    /// they are a joined member; adding (`now` given) also needs them unmuted and the channel not
    /// frozen (`ContributionRules`).
    private static func reactable(
        _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, userID: String, _ caller: Caller, contributingAt now: Int64? = nil,
        _ repositories: Repositories
    ) throws -> Message {
        let context = try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        if let now { try context.requireMayContribute(as: userID, now: now, repositories) }
        guard try ChannelContext.isIn(kind, channelURL, userID, repositories) else {
            throw ParleyError.forbidden("\"\(userID)\" is not in \"\(channelURL)\".")
        }
        guard let message = try repositories.messages.find(channelURL, messageID, viewerID: userID), !message.isRemoved else {
            throw MessageService.notFound(messageID)
        }
        return message
    }
}
