import ParleyCore
import ParleyStore

/// When the unread counts moved by delivered events go out: at once after a quiet spell, else
/// `interval` after the last round. A busy channel moves every member's count with each
/// message; one query and one frame per member each interval, rather than per message, keeps
/// badges current at a bounded cost (the query was 4 % of PostgreSQL's time in the send
/// benchmark at five a second, scripts/bench/events). Time is passed in, so the cadence is
/// tested on its own.
struct UnreadCadence {
    let interval: Duration
    /// What moved since the last round.
    private(set) var watch = UnreadWatch()
    private var isScheduled = false
    private var lastRound: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func note(_ event: Event, for userID: String) {
        watch.note(event, for: userID)
    }

    /// After a batch was delivered: in how long the next round goes, or nil when nothing moved
    /// or a round is already scheduled.
    mutating func nextRound(now: ContinuousClock.Instant) -> Duration? {
        guard !watch.isEmpty, !isScheduled else { return nil }
        isScheduled = true
        guard let lastRound else { return .zero }
        return max(.zero, lastRound + interval - now)
    }

    /// The round goes now: what moved so far, and the watch starts afresh.
    mutating func takeRound(now: ContinuousClock.Instant) -> UnreadWatch {
        isScheduled = false
        lastRound = now
        defer { watch = UnreadWatch() }
        return watch
    }
}

/// The (user, channel) pairs whose unread counts a batch of events moved.
struct UnreadWatch {
    private(set) var pairs: [UnreadPair] = []
    private var seen = Set<UnreadPair>()

    var isEmpty: Bool { pairs.isEmpty }

    mutating func note(_ event: Event, for userID: String) {
        // Open channels have no unread counts.
        guard let channelURL = event.channelURL, event.channelKind == .group else { return }
        let moves: Bool
        switch (event.type, event.payload) {
        case (.messageReceived, .message(let message)): moves = message.sender?.userID != userID && !message.silent
        case (.messageDeleted, _), (.channelHidden, _), (.memberJoined, _): moves = true
        case (.read, .receipt(let reader, _)): moves = reader == userID
        // The leavers' totals drop (the channel's count is 0 for them now).
        case (.memberLeft, .users(let users)): moves = users.contains { $0.userID == userID }
        default: moves = false
        }
        let pair = UnreadPair(userID: userID, channelURL: channelURL)
        if moves && seen.insert(pair).inserted { pairs.append(pair) }
    }
}
