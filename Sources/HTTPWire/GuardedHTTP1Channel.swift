import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Hummingbird's HTTP/1 channel with one WebSocket endpoint's upgrade and connection deadlines
/// (`ConnectionDeadlines`) around its HTTP codec: one handler in front of the decoder sees a
/// request's first bytes, one behind it follows requests and responses.
///
/// The upgrade is NIO's (`NIOTypedWebSocketServerUpgrader`); an upgraded connection leaves the
/// deadlines behind (the endpoint has pings) and becomes the endpoint's NIO handlers, so that the
/// connection's task ends with the upgrade instead of lasting as long as the socket. Only a
/// well-formed upgrade to the endpoint reaches the upgrader (`UpgradeRequestFilter`); what the
/// decoder cannot parse is answered by `MalformedRequestResponder`.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    enum UpgradeResult: Sendable {
        case webSocket
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let webSocket: any WebSocketEndpoint
    let timeouts: HTTPTimeouts
    let faultAnswers: ProtocolFaultAnswers
    /// The largest client frame (an endpoint's own messages are far smaller).
    static let maxFrameSize = 1 << 16

    init(
        responder: @escaping HTTPChannelHandler.Responder, webSocket: any WebSocketEndpoint, timeouts: HTTPTimeouts,
        faultAnswers: ProtocolFaultAnswers
    ) {
        self.responder = responder
        self.webSocket = webSocket
        self.timeouts = timeouts
        self.faultAnswers = faultAnswers
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let webSocket = webSocket
            let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                maxFrameSize: Self.maxFrameSize,
                // `UpgradeRequestFilter` has let only the endpoint's upgrades through.
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        try Self.installWebSocket(on: channel, head: head, webSocket)
                        return .webSocket
                    }
                }
            )
            let http = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let operations = channel.pipeline.syncOperations
                        try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try operations.addHandler(RequestDeadlineHandler())
                        try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                        let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)
                        )
                        return .http(asyncChannel)
                    }
                }
            )
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(upgradeConfiguration: http)
            configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false  // Hummingbird answers errors
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validate them already
            let upgradeResult = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            let upgradeHandler = try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<UpgradeResult>.self)
            try channel.pipeline.syncOperations.addHandler(
                MalformedRequestResponder(answers: faultAnswers), name: MalformedRequestResponder.name, position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(
                UpgradeRequestFilter(isTarget: webSocket.accepts), position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(
                RequestBytesWatcher(deadlines: ConnectionDeadlines(timeouts: timeouts)), name: RequestBytesWatcher.name, position: .first)
            return Value(upgradeResult: upgradeResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .webSocket:
                // The endpoint's handlers run it from here.
                return
            case .http(let asyncChannel):
                await handleHTTP(asyncChannel: asyncChannel, logger: logger)
            }
        } catch {
            logger.debug("a connection ended before its first request", metadata: ["error": "\(error)"])
        }
    }

    /// The pipeline of an upgraded connection: the raw frame writer next to the socket, small
    /// reads (a WebSocket endpoint that mostly sends receives little: pongs, small frames; NIO
    /// keeps a channel's last receive buffer for the next read, 2 KB a socket by default), and
    /// the endpoint's handlers.
    private static func installWebSocket(on channel: any Channel, head: HTTPRequestHead, _ webSocket: any WebSocketEndpoint) throws {
        let operations = channel.pipeline.syncOperations
        for name in [RequestBytesWatcher.name, MalformedRequestResponder.name] {
            operations.removeHandler(context: try operations.context(name: name), promise: nil)
        }
        let wire = WireWriter()
        try operations.addHandler(wire, position: .first)
        try channel.syncOptions?.setOption(
            ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
        try webSocket.install(on: channel, head: head, wire: wire)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with `webSocket`'s upgrade, connection deadlines, and `faultAnswers` to what is not HTTP.
    public static func guardedHTTP1(
        timeouts: HTTPTimeouts, webSocket: any WebSocketEndpoint, faultAnswers: ProtocolFaultAnswers
    ) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTP1Channel(responder: responder, webSocket: webSocket, timeouts: timeouts, faultAnswers: faultAnswers)
        }
    }
}
