import ParleyCore
import Synchronization

/// What a socket is sent (API.md §6.2): stored events, and the ephemeral ones (typing, unread
/// counts), which have no event id and are never replayed.
public enum Delivery: Sendable {
    /// The first frame of every socket (API.md §6.1).
    case hello(StreamHello)
    /// An event, with the frame its recipients share when it reads the same for all of them.
    case event(SharedEvent)
    case typing(TypingChange)
    case unread(UnreadChange)
    /// The `after` of the connection cannot be served: catch up over REST.
    case resyncRequired
    /// A session of the user ended somewhere (revocation, deactivation): the socket checks its own.
    case checkSession
    case close(code: UInt16, reason: String)
}

/// `typing_started` / `typing_ended`.
public struct TypingChange: Sendable, Equatable, Codable {
    public let channelURL: String
    public let user: BasicUser
    public let started: Bool
    public let ts: Int64
}

/// `unread_count_changed`: a user's counts in one channel and over all their channels.
public struct UnreadChange: Sendable, Equatable {
    public let channelURL: String
    public let unreadMessageCount: Int
    public let unreadMentionCount: Int
    public let totalUnreadMessageCount: Int
    public let ts: Int64
}

/// Close codes of the stream (API.md §6.1, docs/EVENTS.md).
public enum StreamCloseCode {
    /// No, a bad, revoked or expired token; a deactivated user.
    public static let unauthorized: UInt16 = 4001
    /// A frame the server does not understand.
    public static let badFrame: UInt16 = 4000
    /// The user opened more sockets than allowed; this, the oldest, closes.
    public static let tooManySockets: UInt16 = 4008
    /// The client did not read fast enough; reconnect with `after`.
    public static let tooSlow: UInt16 = 4009
    /// Too many failed authentications from the client's address (issue 37); the reason says
    /// in how many seconds to try again.
    public static let rateLimited: UInt16 = 4029
}

/// An event on its way to its recipients, and its frame, rendered by the first socket that sends
/// it and reused by the others: a message to a channel of a thousand members is written once, not
/// a thousand times. The frame is shared only when it reads the same for every recipient (see
/// `Event.readsTheSameForEveryone`).
///
/// A class so that handing the event to a thousand sockets retains one reference: copying the
/// `Event` struct retains each of its strings and arrays, and those copies were a tenth of the
/// server's CPU in a fan-out.
public final class SharedEvent: Sendable {
    public let event: Event
    /// `event.readsTheSameForEveryone`, asked once rather than by every socket.
    public let readsTheSameForEveryone: Bool
    private let frame = Mutex<(any Sendable)?>(nil)

    public init(_ event: Event) {
        self.event = event
        self.readsTheSameForEveryone = event.readsTheSameForEveryone
    }

    public func value<Frame: Sendable>(_ render: () -> Frame) -> Frame {
        frame.withLock { frame in
            if let cached = frame as? Frame { return cached }
            let made = render()
            frame = made
            return made
        }
    }
}

extension Event {
    /// False for a message with an uploaded file: its URL carries each recipient's own key.
    public var readsTheSameForEveryone: Bool {
        if case .message(let message) = payload, message.file?.fileID != nil { return false }
        return true
    }
}
