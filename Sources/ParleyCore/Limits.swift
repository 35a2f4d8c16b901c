/// Configurable limits of API.md §1.8 and §2, with their documented defaults.
public struct Limits: Sendable, Equatable {
    public var groupChannelMembers = 100
    public var superGroupMembers = 20_000
    public var openChannelParticipants = 1_000
    /// How long an enter over REST holds an open channel participation without a socket, unless
    /// renewed by entering again (API.md §8.3).
    public var openChannelEnterHoldMillis: Int64 = 120_000
    public var messageLength = 5_000
    public var adminMessageLength = 1_000
    public var dataBytes = 65_535
    public var uploadBytes = 25 * 1024 * 1024
    /// `PARLEY_THUMBNAIL_MAX_SIDE`: a requested thumbnail box's sides (`thumbnail1`…`3`); a larger
    /// box is 400111. A box near 8192² made libvips hold ~500 MB per upload (issue 29).
    public var thumbnailMaxSide = 2048
    public var jsonBodyBytes = 1024 * 1024
    /// Flood protection: most messages per second from one user in one channel (0: off).
    public var messagesPerSecond = 5
    /// `PARLEY_MAX_HISTORY_BYTES`: the stored bytes of messages (and of the polls they carry) a
    /// history window reads (issue 29.1): past it the window is cut at its far ends when it is
    /// read, so that it is not read far past what `responseBytes` lets it write. By default the
    /// same figure.
    public var historyBytes = 2 << 20
    /// `PARLEY_MAX_RESPONSE_BYTES`: what the items of one answer (a list's page, a history
    /// window) may take as written (issue 50.2); past it the answer stops, and its page token (or
    /// for a window, its last message) continues exactly there.
    public var responseBytes = 2 << 20
    /// Distinct reaction keys on one message, and distinct reactions one user puts on one message
    /// (API.md §4.6): every history page and channel list carries a message's reactions.
    public var reactionKeysPerMessage = 50
    public var reactionsPerUserPerMessage = 10
    /// Reports one user may file per hour (duplicates folded into an earlier one do not count).
    public var reportsPerHour = 20
    /// Pinned messages one channel may hold (API.md §13.2).
    public var pinnedMessagesPerChannel = 10
    /// How far ahead a message may be scheduled, and how many may wait in one channel (API.md §13.3).
    public var scheduleMinLeadMillis: Int64 = 5 * 60_000
    public var scheduleMaxLeadMillis: Int64 = 30 * 24 * 3_600_000
    public var scheduledPerChannel = 100
    /// Options one poll may have (API.md §13.4): every message carrying it carries them all.
    public var pollOptions = 20
    /// Characters of a search query (API.md §13.5): each word is a term of the index query.
    public var searchQueryLength = 200
    /// Terms of a search query (`MessageSearch.termCount`): each is a list the index reads whole.
    public var searchTerms = 16
    /// Session token lifetime when the request names no `expires_at`.
    public var sessionTokenLifetimeMillis: Int64 = 7 * 24 * 3600 * 1000

    public init() {}
}
