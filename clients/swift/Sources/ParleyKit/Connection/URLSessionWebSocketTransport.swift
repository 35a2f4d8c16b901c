import Foundation

#if canImport(FoundationNetworking)
    // Compiled on Linux too, so that the Apple platforms' transport is type-checked where the
    // tests run; Linux picks the NIO transport at run time (its libcurl has no WebSocket).
    import FoundationNetworking
#endif

/// The Apple platforms' transport: URLSession's WebSocket task (it answers pings itself).
struct URLSessionWebSocketTransport: WebSocketTransport {
    func run(
        url: URL, headers: [String: String], pingInterval: Double, opened: @escaping @Sendable (any WebSocketSending) async -> Void,
        received: @escaping @Sendable (String) async -> Void
    ) async throws -> Int? {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = URLSession.shared.webSocketTask(with: request)
        task.maximumMessageSize = 1 << 24
        task.resume()
        await opened(URLSessionSender(task: task))
        return await withTaskGroup(of: Int?.self) { group in
            group.addTask { await Self.ping(task, every: pingInterval) }
            group.addTask { await Self.receive(from: task, into: received) }
            // The receiving child ends with the connection; the pinger goes with it.
            let code = await group.next() ?? nil
            group.cancelAll()
            return code
        }
    }
}

extension URLSessionWebSocketTransport {
    /// Feeds text frames in order until the connection ends; returns the server's close code.
    static func receive(from task: URLSessionWebSocketTask, into received: @Sendable (String) async -> Void) async -> Int? {
        do {
            while true {
                switch try await task.receive() {
                case .string(let text): await received(text)
                case .data: continue
                @unknown default: continue
                }
            }
        } catch {
            let code = task.closeCode.rawValue
            return code == 0 ? nil : code
        }
    }

    /// Pings, and cancels the task when a pong has not come back by the next ping: a connection
    /// that dropped without a close code, so it returns none.
    static func ping(_ task: URLSessionWebSocketTask, every interval: Double) async -> Int? {
        let answered = PongFlag()
        while !Task.isCancelled {
            answered.set(false)
            task.sendPing { error in if error == nil { answered.set(true) } }
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            if Task.isCancelled { break }
            if !answered.get() {
                task.cancel(with: .goingAway, reason: nil)
                break
            }
        }
        return nil
    }
}

private final class PongFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set(_ new: Bool) { lock.withLock { value = new } }
    func get() -> Bool { lock.withLock { value } }
}

private struct URLSessionSender: WebSocketSending {
    let task: URLSessionWebSocketTask

    func send(_ text: String) async throws {
        try await task.send(.string(text))
    }

    func close() async {
        task.cancel(with: .normalClosure, reason: nil)
    }
}
