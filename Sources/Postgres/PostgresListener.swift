import CLibPQ
import Foundation
import Logging
import Synchronization

/// LISTEN on a dedicated connection, on a thread of its own: PostgreSQL's notifications, which
/// a NOTIFY sends at its transaction's commit, arrive as an async sequence.
///
/// The connection is re-established when it is lost; `.reconnected` then tells the consumer
/// that notifications may have been missed meanwhile (it should look for itself).
public final class PostgresListener: Sendable {
    public enum Notice: Sendable, Equatable {
        case notification(channel: String, payload: String)
        /// Listening (again): whatever was sent before may not have arrived.
        case reconnected
    }

    private let conninfo: String
    private let channels: [String]
    private let logger: Logger
    private let stopped = Atomic<Bool>(false)
    private let stream: AsyncStream<Notice>
    private let continuation: AsyncStream<Notice>.Continuation

    /// `channels` are identifiers chosen by the program (they are written into LISTEN as is).
    public init(conninfo: String, channels: [String], logger: Logger) {
        precondition(channels.allSatisfy { $0.allSatisfy { $0.isLetter || $0 == "_" } })
        self.conninfo = conninfo
        self.channels = channels
        self.logger = logger
        // A slow consumer loses wake-ups, never the events: it reads the database anyway.
        (stream, continuation) = AsyncStream.makeStream(of: Notice.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// The notifications, from `start()` on. One consumer.
    public var notices: AsyncStream<Notice> { stream }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "parley-listen"
        thread.start()
    }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func run() {
        var backoff = 0.05
        while !stopped.load(ordering: .relaxed) {
            do {
                try listen()
                backoff = 0.05
            } catch {
                logger.warning("LISTEN connection lost; reconnecting", metadata: ["error": "\(error)"])
            }
            if stopped.load(ordering: .relaxed) { break }
            Thread.sleep(forTimeInterval: backoff)
            backoff = min(backoff * 2, 2)
        }
        continuation.finish()
    }

    /// One connection's life: LISTEN, then wait for its socket and hand on what arrives.
    private func listen() throws {
        let connection = try PostgresConnection(conninfo: conninfo, logger: logger, settings: SessionSettings.listening)
        try connection.execute(channels.map { "LISTEN \($0)" }.joined(separator: "; "))
        continuation.yield(.reconnected)
        let handle = connection.handle
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw connection.connectionError() }
        while !stopped.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            // Wakes at least every half second to notice `stop()`.
            let ready = poll(&descriptor, 1, 500)
            if ready < 0 && errno != EINTR { throw connection.connectionError() }
            guard ready > 0 else { continue }
            guard PQconsumeInput(handle) == 1 else { throw connection.connectionError() }
            while let notification = PQnotifies(handle) {
                let channel = String(cString: notification.pointee.relname)
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                continuation.yield(.notification(channel: channel, payload: payload))
            }
        }
    }
}

extension SessionSettings {
    /// A listening connection runs no statements that could hang, and sits idle by design.
    static var listening: SessionSettings {
        var settings = SessionSettings()
        settings.idleInTransactionTimeout = nil
        return settings
    }
}
