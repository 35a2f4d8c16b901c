import Foundation
import NIOCore
import NIOHTTP1

/// Lets only a well-formed WebSocket upgrade to the endpoint's targets reach NIO's upgrade
/// handler. Any other `Upgrade` on a connection's first request is dropped, and the request is
/// answered as plain HTTP (a server may ignore an upgrade, RFC 9110 §7.8): the endpoint's path then
/// gets its router's answer (Parley's event stream: the documented 426), any other path its usual one. The connection closes after it (`Connection:
/// close`): NIO's HTTP decoder parses nothing after a request that asked to upgrade.
///
/// Why: NIO's typed upgrade handler loses the request's head when a request asks to upgrade and
/// no upgrader takes it (WebSocket headers missing or wrong, another protocol such as h2c), and
/// the connection ended with no answer at all.
final class UpgradeRequestFilter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Whether a request target is the WebSocket endpoint's.
    let isTarget: @Sendable (String) -> Bool

    init(isTarget: @escaping @Sendable (String) -> Bool) {
        self.isTarget = isTarget
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.headers.contains(name: "upgrade"), !isWebSocketUpgrade(head) {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        // NIO upgrades a connection's first request only: one look is enough.
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    /// What NIO's WebSocket upgrader accepts, to the endpoint's path.
    func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        func tokens(_ name: String) -> [String] {
            head.headers[name].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        return head.method == .GET && isTarget(head.uri) && tokens("upgrade") == ["websocket"]
            && tokens("connection").contains("upgrade") && head.headers["sec-websocket-version"] == ["13"]
            && head.headers["sec-websocket-key"].count == 1
    }
}
