import Foundation

/// One WebSocket connection at a time: `run` connects, hands `opened` a way to send, feeds every
/// text frame to `received` in order, and returns when the connection ends, with the server's
/// close code (nil when it dropped without one). It pings every `pingInterval` seconds and
/// drops a connection whose pong has not come back by the next ping. Apple platforms use
/// URLSession; Linux, whose URLSession has no WebSocket, a SwiftNIO client.
protocol WebSocketTransport: Sendable {
    func run(
        url: URL, headers: [String: String], pingInterval: Double, opened: @escaping @Sendable (any WebSocketSending) async -> Void,
        received: @escaping @Sendable (String) async -> Void
    ) async throws -> Int?
}

/// Sends frames on an open connection, and closes it.
protocol WebSocketSending: Sendable {
    func send(_ text: String) async throws
    func close() async
}

enum WebSocketTransports {
    static func platformDefault() -> any WebSocketTransport {
        #if canImport(Darwin)
            URLSessionWebSocketTransport()
        #else
            NIOWebSocketTransport()
        #endif
    }
}
