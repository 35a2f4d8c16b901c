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

    mutating func note(_ move: UnreadMove, for userID: String) {
        watch.note(move, for: userID)
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

    mutating func note(_ move: UnreadMove, for userID: String) {
        guard let channelURL = move.channelURL, move.moves(userID) else { return }
        let pair = UnreadPair(userID: userID, channelURL: channelURL)
        if seen.insert(pair).inserted { pairs.append(pair) }
    }
}

/// Whose unread count in its channel an event moves, worked out once per event: the hub asks
/// for each of its recipients, and looking into the event's payload each time copied the
/// message (a few per cent of the server's CPU in a fan-out to a thousand sockets).
struct UnreadMove {
    /// Nil when the event moves no count.
    let channelURL: String?
    private let whose: Whose

    private enum Whose {
        case nobody
        case everyoneBut(String?)
        case only([String])
    }

    init(_ event: Event) {
        let whose = Self.whose(event)
        self.whose = whose
        // Open channels have no unread counts.
        if case .nobody = whose { channelURL = nil } else { channelURL = event.channelKind == .group ? event.channelURL : nil }
    }

    private static func whose(_ event: Event) -> Whose {
        switch (event.type, event.payload) {
        case (.messageReceived, .message(let message)): message.silent ? .nobody : .everyoneBut(message.sender?.userID)
        case (.messageDeleted, _), (.channelHidden, _), (.memberJoined, _): .everyoneBut(nil)
        case (.read, .receipt(let reader, _)): .only([reader])
        // The leavers' totals drop (the channel's count is 0 for them now).
        case (.memberLeft, .users(let users)): .only(users.map(\.userID))
        default: .nobody
        }
    }

    func moves(_ userID: String) -> Bool {
        switch whose {
        case .nobody: false
        case .everyoneBut(let sender): userID != sender
        case .only(let users): users.contains(userID)
        }
    }
}
