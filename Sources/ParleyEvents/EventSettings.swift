/// The realtime stream's settings (API.md §6), from configuration.
public struct EventSettings: Sendable {
    /// How long events are kept for replay (24 h).
    public var retentionMillis: Int64 = 24 * 3_600_000
    /// A replay longer than this answers `resync_required`.
    public var maxReplay = 1000
    /// Sockets per user; the oldest closes (4008) when one more opens.
    public var socketsPerUser = 20
    /// How often the server pings a socket.
    public var pingInterval: Duration = .seconds(30)
    /// A peer that sends nothing (no pong, no frame) for this long is dropped.
    public var silenceLimit: Duration = .seconds(75)
    /// A browser's auth frame must arrive within this.
    public var authTimeout: Duration = .seconds(5)
    /// Instance heartbeats, and when the others count this instance (and its sockets) gone: each
    /// instance writes its own limit beside its heartbeat, so instances configured differently
    /// never reap each other early.
    public var heartbeatInterval: Duration = .seconds(5)
    public var instanceDeadAfter: Duration = .seconds(20)
    /// A typing state ends this long after its last start.
    public var typingExpiry: Duration = .seconds(10)
    /// A user's typing starts in one channel are passed on at most this often.
    public var typingThrottle: Duration = .seconds(3)
    /// Live deliveries a socket may have waiting behind a connection the client does not read
    /// (besides its replay) before it is closed as too slow; also how many may arrive while its
    /// replay is read.
    public var socketQueueLimit = 4096
    /// Bytes a socket may have waiting in the server for a client that does not read (frames NIO
    /// holds that the kernel has not taken, and those queued for its event loop) before it is
    /// closed as too slow. Frames differ a thousandfold in size (a file message with 65,000
    /// characters of `data` is up to 393 KB, rendered for each socket), so the frame limit alone
    /// let one stalled socket hold 1.6 GB. Must exceed the largest frame.
    public var socketQueueBytes = 4 << 20
    /// `unread_count_changed` frames go out at most this often per instance, each with the
    /// counts moved meanwhile (the first after a quiet spell at once).
    public var unreadInterval: Duration = .seconds(1)
    /// How often the event log is looked at without a wake-up (a lost notification costs this).
    public var fallbackPollInterval: Duration = .seconds(1)
    /// Smart throttling (API.md §8.4): at most this many other participants' messages per second
    /// and open channel in a participant's live stream (0: no limit).
    public var openChannelMessagesPerSecond = 5

    public init() {}
}

extension Duration {
    public var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
