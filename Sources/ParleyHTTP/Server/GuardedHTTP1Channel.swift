import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ParleyContainer

/// Hummingbird's HTTP/1 channel with Parley's connection deadlines (`ConnectionDeadlines`)
/// around its HTTP codec: one handler in front of the decoder sees a request's first bytes, one
/// behind it follows requests and responses.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel
    let timeouts: HTTPTimeouts

    init(responder: @escaping HTTPChannelHandler.Responder, timeouts: HTTPTimeouts) {
        self.base = HTTP1Channel(responder: responder)
        self.timeouts = timeouts
    }

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = timeouts
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let deadlines = ConnectionDeadlines(timeouts: timeouts)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(RequestBytesWatcher(deadlines: deadlines), position: .first)
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(RequestDeadlineHandler(deadlines: deadlines), position: .after(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with Parley's connection deadlines.
    static func guardedHTTP1(timeouts: HTTPTimeouts) -> HTTPServerBuilder {
        .init { responder in GuardedHTTP1Channel(responder: responder, timeouts: timeouts) }
    }
}
