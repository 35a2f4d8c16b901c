import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import ParleyContainer

/// Hummingbird's HTTP/1 channel with the event stream's WebSocket upgrade and Parley's
/// connection deadlines (`ConnectionDeadlines`) around its HTTP codec: one handler in front of
/// the decoder sees a request's first bytes, one behind it follows requests and responses.
///
/// The upgrade is NIO's (`NIOTypedWebSocketServerUpgrader`); an upgraded connection leaves the
/// deadlines behind (the stream has pings) and becomes NIO handlers (`EventStreamHandler`), so
/// that the connection's task ends with the upgrade instead of lasting as long as the socket.
/// Only a well-formed upgrade of the stream reaches the upgrader (`UpgradeRequestFilter`); what the
/// decoder cannot parse is answered by `MalformedRequestResponder`.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    enum UpgradeResult: Sendable {
        case eventStream
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let eventStream: EventStreamController
    let timeouts: HTTPTimeouts
    /// The largest client frame (the stream's messages are far smaller; see
    /// `EventStreamController.maxInboundMessage`).
    static let maxFrameSize = 1 << 16

    init(responder: @escaping HTTPChannelHandler.Responder, eventStream: EventStreamController, timeouts: HTTPTimeouts) {
        self.responder = responder
        self.eventStream = eventStream
        self.timeouts = timeouts
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let eventStream = eventStream
            let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                maxFrameSize: Self.maxFrameSize,
                // `UpgradeRequestFilter` has let only the stream's upgrades through.
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        try Self.installEventStream(on: channel, head: head, eventStream)
                        return .eventStream
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
                MalformedRequestResponder(), name: MalformedRequestResponder.name, position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(UpgradeRequestFilter(), position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(
                RequestBytesWatcher(deadlines: ConnectionDeadlines(timeouts: timeouts)), name: RequestBytesWatcher.name, position: .first)
            return Value(upgradeResult: upgradeResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .eventStream:
                // The stream's handlers run it from here.
                return
            case .http(let asyncChannel):
                await handleHTTP(asyncChannel: asyncChannel, logger: logger)
            }
        } catch {
            logger.debug("a connection ended before its first request", metadata: ["error": "\(error)"])
        }
    }

    /// The pipeline of an upgraded event stream: the raw frame writer next to the socket, small
    /// reads (an event stream receives little: pongs, typing frames; NIO keeps a channel's last
    /// receive buffer for the next read, 2 KB a socket by default), and the stream's handler.
    private static func installEventStream(on channel: any Channel, head: HTTPRequestHead, _ eventStream: EventStreamController) throws {
        let operations = channel.pipeline.syncOperations
        for name in [RequestBytesWatcher.name, MalformedRequestResponder.name] {
            operations.removeHandler(context: try operations.context(name: name), promise: nil)
        }
        let wire = WireWriter()
        try operations.addHandler(wire, position: .first)
        try channel.syncOptions?.setOption(
            ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
        let query = head.uri.firstIndex(of: "?").map { head.uri[head.uri.index(after: $0)...] }
        try operations.addHandler(
            EventStreamHandler(
                controller: eventStream, wire: wire, closer: StreamCloser(channel: channel, wire: wire),
                token: EventStreamController.token(in: head.headers), query: query.map(Substring.init)
            )
        )
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the event stream's upgrade and Parley's connection deadlines.
    static func guardedHTTP1(timeouts: HTTPTimeouts, eventStream: EventStreamController) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTP1Channel(responder: responder, eventStream: eventStream, timeouts: timeouts)
        }
    }
}
