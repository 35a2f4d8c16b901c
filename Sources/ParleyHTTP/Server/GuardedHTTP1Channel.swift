import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ParleyContainer

/// Hummingbird's HTTP/1 channel with a WebSocket upgrade (the event stream) and Parley's
/// connection deadlines (`ConnectionDeadlines`) around its HTTP codec: one handler in front of
/// the decoder sees a request's first bytes, one behind it follows requests and responses. An
/// upgraded connection leaves the deadlines behind (`leaveDeadlines`): the stream has pings.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let timeouts: HTTPTimeouts

    init(
        responder: @escaping HTTPChannelHandler.Responder, webSocketResponder: some HTTPResponder<EventStreamContext>,
        webSocket: WebSocketServerConfiguration, timeouts: HTTPTimeouts
    ) {
        self.base = HTTP1WebSocketUpgradeChannel(
            responder: responder, webSocketResponder: webSocketResponder,
            configuration: .init(http1: .init(additionalChannelHandlers: [RequestDeadlineHandler()], idleTimeout: nil), ws: webSocket)
        )
        self.timeouts = timeouts
    }

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = timeouts
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(
                RequestBytesWatcher(deadlines: ConnectionDeadlines(timeouts: timeouts)), name: RequestBytesWatcher.name, position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }

    /// Called by the event stream once upgraded.
    static func leaveDeadlines(_ channel: any Channel) async {
        try? await channel.pipeline.removeHandler(name: RequestBytesWatcher.name)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the event stream's upgrade and Parley's connection deadlines.
    static func guardedHTTP1(
        timeouts: HTTPTimeouts, webSocketRouter: Router<EventStreamContext>, webSocket: WebSocketServerConfiguration
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            GuardedHTTP1Channel(responder: responder, webSocketResponder: webSocketResponder, webSocket: webSocket, timeouts: timeouts)
        }
    }
}
