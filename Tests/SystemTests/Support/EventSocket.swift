import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import Synchronization
import Testing

/// A real WebSocket client of the event stream (hummingbird-websocket's), for tests: frames as
/// they arrive, frames to send, and the close code the server ended with.
final class EventSocket: Sendable {
    /// What the client task records.
    private final class Inbox: Sendable {
        let received = Mutex<[String]>([])
        let closeCode = Mutex<UInt16?>(nil)
        let ended = Mutex(false)
        /// Why the client ended without a close frame (a refused connection or upgrade).
        let failure = Mutex<String?>(nil)
    }
    private let inbox = Inbox()
    private let outgoing: AsyncStream<String>.Continuation

    /// Connects to `port` with the token in the upgrade's headers (or none, for a browser's
    /// auth frame), and `query` (`after=…`).
    init(port: Int, token: String?, query: String = "", headers: HTTPFields = [:]) {
        var configuration = WebSocketClientConfiguration()
        // Long messages make frames beyond the client's default limit (16 KiB).
        configuration.maxFrameSize = 1 << 22
        configuration.additionalHeaders = headers
        if let token { configuration.additionalHeaders[HTTPField.Name("Session-Token")!] = token }
        let (frames, outgoing) = AsyncStream.makeStream(of: String.self)
        self.outgoing = outgoing
        let url = "ws://127.0.0.1:\(port)/v3/events" + (query.isEmpty ? "" : "?\(query)")
        Task { [inbox] in
            let close: WebSocketCloseFrame?
            do {
                close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "test-ws")) {
                    inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in frames { try await outbound.write(.text(text)) }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { inbox.received.withLock { $0.append(text) } }
                        }
                        group.cancelAll()
                    }
                }
            } catch {
                close = nil
                inbox.failure.withLock { $0 = "\(error)" }
            }
            inbox.closeCode.withLock { $0 = close.map { Self.code($0.closeCode) } ?? nil }
            inbox.ended.withLock { $0 = true }
        }
    }

    private static func code(_ code: WebSocketErrorCode) -> UInt16 {
        switch code {
        case .normalClosure: 1000
        case .goingAway: 1001
        case .protocolError: 1002
        case .unacceptableData: 1003
        case .dataInconsistentWithMessage: 1007
        case .policyViolation: 1008
        case .messageTooLarge: 1009
        case .missingExtension: 1010
        case .unexpectedServerError: 1011
        case .unknown(let value): value
        }
    }

    func send(_ frame: [String: Any]) throws {
        outgoing.yield(String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self))
    }

    func close() {
        outgoing.finish()
    }

    /// Every frame so far, parsed.
    var frames: [[String: Any]] {
        inbox.received.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The stored events so far (frames with an `event_id`).
    var events: [[String: Any]] { frames.filter { $0["event_id"] != nil } }

    func events(ofType type: String) -> [[String: Any]] { events.filter { $0["type"] as? String == type } }

    /// Waits until a frame satisfies `match`, and returns it. The default is long: a frame that
    /// comes returns at once, and on two cores shared with the whole suite (the test servers have
    /// four database connections each) a change and its event may take seconds.
    func waitFor(within limit: Duration = .seconds(30), _ match: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
        var found: [String: Any]?
        _ = try await eventually(within: limit) {
            found = frames.first(where: match)
            return found != nil
        }
        guard let found else { throw TestFailure("no matching frame; \(state)") }
        return found
    }

    func waitForEvent(_ type: String, within limit: Duration = .seconds(30)) async throws -> [String: Any] {
        try await waitFor(within: limit) { $0["type"] as? String == type }
    }

    /// The hello frame, once the stream is open. A new server's hub waits for the event
    /// transactions open at its start (other tests' too) before its first hello, hence the room.
    func hello() async throws -> [String: Any] {
        try await waitForEvent("hello", within: .seconds(30))
    }

    /// Waits for the server to close the socket; the close code, if it sent one.
    func closed(within limit: Duration = .seconds(20)) async throws -> UInt16? {
        guard try await eventually(within: limit, { inbox.ended.withLock { $0 } }) else { throw TestFailure("the socket stayed open") }
        return inbox.closeCode.withLock { $0 }
    }

    var isClosed: Bool { inbox.ended.withLock { $0 } }

    /// What the socket got and how it ended, for failure messages.
    private var state: String {
        let ended = isClosed ? "closed with \(inbox.closeCode.withLock { $0 }.map(String.init) ?? "no code")" : "open"
        let failure = inbox.failure.withLock { $0 }.map { ", failed: \($0)" } ?? ""
        return "got \(inbox.received.withLock { $0 }) (\(ended)\(failure))"
    }
}

extension API {
    /// Opens the event stream of the user with `token`, and waits for its hello.
    func events(_ token: String, after: Int64? = nil) async throws -> EventSocket {
        let socket = EventSocket(port: try #require(client.port), token: token, query: after.map { "after=\($0)" } ?? "")
        _ = try await socket.hello()
        return socket
    }
}
