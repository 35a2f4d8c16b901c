import NIOCore
import NIOHTTP1

/// The one WebSocket endpoint a `GuardedHTTP1Channel` upgrades to: which request targets are
/// its, and the handlers it runs an upgraded connection with.
public protocol WebSocketEndpoint: Sendable {
    /// Whether `uri` (path and query of a GET) is this endpoint's.
    func accepts(_ uri: String) -> Bool
    /// Adds the endpoint's handlers to an upgraded channel, whose frames go out through `wire`.
    /// Runs on the channel's event loop.
    func install(on channel: any Channel, head: HTTPRequestHead, wire: WireWriter) throws
}
