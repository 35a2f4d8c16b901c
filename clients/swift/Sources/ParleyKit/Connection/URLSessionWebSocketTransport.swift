#if canImport(Darwin)
    import Foundation

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
            let pinger = Task { await Self.ping(task, every: pingInterval) }
            defer { pinger.cancel() }
            await opened(URLSessionSender(task: task))
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
    }

    extension URLSessionWebSocketTransport {
        /// Pings, and cancels the task when a pong has not come back by the next ping.
        static func ping(_ task: URLSessionWebSocketTask, every interval: Double) async {
            let answered = PongFlag()
            while !Task.isCancelled {
                answered.set(false)
                task.sendPing { error in if error == nil { answered.set(true) } }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                if Task.isCancelled { return }
                guard answered.get() else {
                    task.cancel(with: .goingAway, reason: nil)
                    return
                }
            }
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
#endif
