#if !canImport(Darwin)
    import Foundation
    import HTTPTypes
    import Logging
    import NIOCore
    import WSClient

    /// The Linux transport: swift-websocket's client (it answers the server's pings itself).
    struct NIOWebSocketTransport: WebSocketTransport {
        func run(
            url: URL, headers: [String: String], pingInterval: Double, opened: @escaping @Sendable (any WebSocketSending) async -> Void,
            received: @escaping @Sendable (String) async -> Void
        ) async throws -> Int? {
            var configuration = WebSocketClientConfiguration()
            for (name, value) in headers {
                if let field = HTTPField.Name(name) { configuration.additionalHeaders[field] = value }
            }
            // Frames of the event stream are small, but a message may carry 64 KiB of data and more.
            configuration.maxFrameSize = 1 << 24
            configuration.autoPing = .enabled(timePeriod: .milliseconds(Int64(pingInterval * 1000)))
            var logger = Logger(label: "ParleyKit.WebSocket")
            logger.logLevel = .critical
            let closed = try await WebSocketClient.connect(url: url.absoluteString, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                await opened(NIOSender(outbound: outbound))
                for try await message in inbound.messages(maxSize: 1 << 24) {
                    if case .text(let text) = message { await received(text) }
                }
            }
            return closed.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }
        }
    }

    private struct NIOSender: WebSocketSending {
        let outbound: WebSocketOutboundWriter

        func send(_ text: String) async throws {
            try await outbound.write(.text(text))
        }

        func close() async {
            try? await outbound.close(.normalClosure, reason: nil)
        }
    }
#endif
