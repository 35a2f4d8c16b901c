import Logging
import ParleyCore
import ParleyStore
import Synchronization

/// The message filters in force (API.md §14.7) as the send and edit paths use them: compiled
/// once, and checked against the database at most once a second (a read of one fingerprint), so
/// that a change on any instance holds on every instance within a second without a query per
/// message. Also counts the profanity filter's hits and takes the action they trigger.
public final class MessageFilters: Sendable {
    let store: Store
    let clock: Clock
    let moderation: ModerationService
    let logger: Logger
    private let cache = Mutex<(checkedAt: Int64, fingerprint: String, set: MessageFilterSet)?>(nil)

    public static let refreshMillis: Int64 = 1_000

    public init(store: Store, clock: Clock, moderation: ModerationService, logger: Logger) {
        self.store = store
        self.clock = clock
        self.moderation = moderation
        self.logger = logger
    }

    /// The filters in force, at most a second old (this instance's own changes at once).
    public func current() async throws -> MessageFilterSet {
        let now = clock.nowMillis
        let cached = cache.withLock { $0 }
        if let cached, now - cached.checkedAt < Self.refreshMillis { return cached.set }
        let fingerprint = try await store.read { try $0.messageFilters.fingerprint() }
        if let cached, cached.fingerprint == fingerprint {
            cache.withLock { $0 = (now, fingerprint, cached.set) }
            return cached.set
        }
        let (settings, current) = try await store.read { try $0.messageFilters.all() }
        let set = try MessageFilterSet(settings)
        cache.withLock { $0 = (now, current, set) }
        return set
    }

    /// Forgets the compiled filters (after a change on this instance).
    func invalidate() {
        cache.withLock { $0 = nil }
    }

    /// Counts a hit of the profanity filter by `userID` in the channel; at `count` hits within
    /// `duration` seconds, mutes, kicks or bans them there (for `duration` seconds) and starts
    /// the count anew. Failures are logged: the message's own outcome stands.
    public func strike(_ userID: String, _ kind: ChannelKind, _ channelURL: String, _ rule: MessageFilterSettings.TriggeredModeration)
        async
    {
        guard rule.action != .none, rule.count > 0, rule.duration > 0 else { return }
        let now = clock.nowMillis
        let window = Int64(rule.duration) * 1000
        do {
            let hits = try await store.transaction {
                try $0.messageFilters.strike(channelURL, userID, at: now, since: now - window, forgetBefore: now - 30 * 86_400_000)
            }
            guard hits >= rule.count else { return }
            let restriction = NewRestriction(
                userID: userID, seconds: Int64(rule.duration), description: "profanity filter", agentID: nil)
            switch rule.action {
            case .none: return
            case .mute: _ = try await moderation.mute(.admin, kind, channelURL, restriction)
            case .kick: try await moderation.kick(kind, channelURL, userID: userID)
            case .ban: _ = try await moderation.ban(.admin, kind, channelURL, restriction)
            }
            try await store.transaction { try $0.messageFilters.clearStrikes(channelURL, userID) }
        } catch {
            logger.warning("the profanity filter's action failed", metadata: ["user_id": "\(userID)", "error": "\(error)"])
        }
    }
}
