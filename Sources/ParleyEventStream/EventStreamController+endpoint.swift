import HTTPTypes
import HTTPWire
import NIOCore
import NIOHTTP1
import ParleyHTTPConventions

/// The event stream as the WebSocket endpoint of the server's HTTP/1 channel: an upgraded
/// connection becomes an `EventStreamHandler`.
extension EventStreamController: WebSocketEndpoint {
    public func accepts(_ uri: String) -> Bool {
        Self.isStreamTarget(uri)
    }

    public func install(on channel: any Channel, head: HTTPRequestHead, wire: WireWriter) throws {
        let query = head.uri.firstIndex(of: "?").map { head.uri[head.uri.index(after: $0)...] }
        try channel.pipeline.syncOperations.addHandler(
            EventStreamHandler(
                controller: self, wire: wire, closer: StreamCloser(channel: channel, wire: wire),
                token: Self.token(in: head.headers), query: query.map(Substring.init),
                address: clientAddress(channel.remoteAddress, head.headers)
            )
        )
    }

    /// The client's address behind the trusted proxies, from the upgrade's forwarding headers.
    func clientAddress(_ peer: SocketAddress?, _ headers: HTTPHeaders) -> String {
        var forwarding = HTTPFields()
        for name in [ForwardedClient.forwarded, ForwardedClient.forwardedFor, ForwardedClient.forwardedProto] {
            for value in headers[name.rawName] { forwarding.append(HTTPField(name: name, value: value)) }
        }
        return clients.origin(peer: peer, headers: forwarding).address
    }
}
