import ParleyCore

/// Who is typing where (API.md §6.5), as this instance knows it. Every instance keeps the same
/// table from the typing notifications all of them receive, ends entries by itself (expiry, a
/// message from the typist) and tells its own sockets; nothing of it is stored.
struct TypingStates {
    struct Key: Hashable {
        let channelURL: String
        let userID: String
    }
    struct Entry {
        let user: BasicUser
        var lastStart: ContinuousClock.Instant
    }

    let expiry: Duration
    let throttle: Duration
    private var entries: [Key: Entry] = [:]
    /// When each user last started typing in each channel, kept past the end of the typing for
    /// as long as it throttles a new start.
    private var lastStarts: [Key: ContinuousClock.Instant] = [:]

    init(expiry: Duration, throttle: Duration) {
        self.expiry = expiry
        self.throttle = throttle
    }

    /// Whether a new start of this user here is passed on (not within the throttle of the last
    /// one); if so it counts as the last start from now on, so that a second request before the
    /// first one's notification comes back is throttled too.
    mutating func admitStart(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        if let lastStart = lastStarts[key], now - lastStart < throttle { return false }
        lastStarts[key] = now
        return true
    }

    /// A start arrived; returns the change to announce (nil when the user was typing already).
    mutating func started(_ user: BasicUser, in channelURL: String, now: ContinuousClock.Instant, ts: Int64) -> TypingChange? {
        let key = Key(channelURL: channelURL, userID: user.userID)
        let wasTyping = entries[key] != nil
        entries[key] = Entry(user: user, lastStart: now)
        lastStarts[key] = now
        return wasTyping ? nil : TypingChange(channelURL: channelURL, user: user, started: true, ts: ts)
    }

    mutating func ended(_ key: Key, ts: Int64) -> TypingChange? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        return TypingChange(channelURL: key.channelURL, user: entry.user, started: false, ts: ts)
    }

    /// The user's last socket closed: every typing state of theirs ends.
    mutating func endedAll(of userID: String, ts: Int64) -> [TypingChange] {
        entries.keys.filter { $0.userID == userID }.compactMap { ended($0, ts: ts) }
    }

    mutating func expired(now: ContinuousClock.Instant, ts: Int64) -> [TypingChange] {
        lastStarts = lastStarts.filter { now - $0.value < throttle }
        return entries.filter { now - $0.value.lastStart >= expiry }.keys.compactMap { ended($0, ts: ts) }
    }
}

/// What instances tell each other about typing (NOTIFY payloads, JSON).
struct TypingNotice: Codable {
    var channelURL: String?
    var user: BasicUser?
    var started: Bool?
    /// Set when a user went offline: all their typing ends.
    var offlineUserID: String?
}
