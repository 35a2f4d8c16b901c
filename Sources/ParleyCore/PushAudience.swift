/// Who receives a push for a new message in a group channel (API.md §12.3), decided when the
/// push is dispatched, for each member the dispatcher read. Open channels never push (the caller
/// never asks), and `silent` and `send_push: false` messages are never queued.
public enum PushAudience {
    /// From this many members a supergroup pushes a channel's messages in windows.
    public static let supergroupThreshold = 100
    /// A supergroup's channel pushes at most once per this, in ms (the seed's ten minutes).
    public static let supergroupWindowMillis: Int64 = 600_000
    /// A member who has read the channel gets every push of it for this long after, in ms.
    public static let justReadMillis: Int64 = 60_000

    /// A member as the dispatcher reads them for one message.
    public struct Candidate: Sendable {
        public var userID: String
        public var isJoined: Bool
        public var hasDeviceTokens: Bool
        /// An event-stream socket open on any instance.
        public var isOnline: Bool
        /// The member blocks the sender.
        public var blocksSender: Bool
        public var preference: PushPreference
        public var channelOption: ChannelPushTriggerOption
        /// The message mentions them (by name, or a channel mention).
        public var isMentioned: Bool
        /// When they last read the channel (ms), 0 when never.
        public var readAt: Int64

        public init(
            userID: String, isJoined: Bool = true, hasDeviceTokens: Bool = true, isOnline: Bool = false, blocksSender: Bool = false,
            preference: PushPreference = PushPreference(), channelOption: ChannelPushTriggerOption = .default, isMentioned: Bool = false,
            readAt: Int64 = 0
        ) {
            self.userID = userID
            self.isJoined = isJoined
            self.hasDeviceTokens = hasDeviceTokens
            self.isOnline = isOnline
            self.blocksSender = blocksSender
            self.preference = preference
            self.channelOption = channelOption
            self.isMentioned = isMentioned
            self.readAt = readAt
        }
    }

    /// The message and its channel, as the push rules need them.
    public struct Message: Sendable {
        /// Nil for an admin message.
        public var senderID: String?
        public var isRemoved: Bool
        public var isSupergroup: Bool
        public var memberCount: Int

        public init(senderID: String?, isRemoved: Bool = false, isSupergroup: Bool = false, memberCount: Int = 2) {
            self.senderID = senderID
            self.isRemoved = isRemoved
            self.isSupergroup = isSupergroup
            self.memberCount = memberCount
        }

        /// Whether the channel pushes in windows (a supergroup of 100 members or more).
        public var isWindowed: Bool { isSupergroup && memberCount >= PushAudience.supergroupThreshold }
    }

    /// Whether a windowed channel whose last push went out at `lastPushAt` may push at `now`:
    /// the next push no sooner than the window after the one that opened it.
    public static func windowIsOpen(lastPushAt: Int64?, now: Int64) -> Bool {
        guard let lastPushAt else { return true }
        return now - lastPushAt >= supergroupWindowMillis
    }

    /// Whether `candidate` receives the push of `message` at `now` (ms); `windowOpen` is
    /// `windowIsOpen` for windowed channels (ignored for others).
    public static func receives(_ candidate: Candidate, _ message: Message, windowOpen: Bool, now: Int64) -> Bool {
        guard !message.isRemoved, candidate.isJoined, candidate.userID != message.senderID else { return false }
        guard candidate.hasDeviceTokens, !candidate.isOnline, !candidate.blocksSender else { return false }
        switch candidate.channelOption.resolved(over: candidate.preference.triggerOption) {
        case .off: return false
        case .mentionOnly: guard candidate.isMentioned else { return false }
        case .all: break
        }
        guard !candidate.preference.isQuiet(atMillis: now) else { return false }
        if message.isWindowed && !windowOpen {
            return candidate.readAt > 0 && now - candidate.readAt <= justReadMillis
        }
        return true
    }
}
