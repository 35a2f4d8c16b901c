import NIOCore
import ParleyCore
import Synchronization

/// What the request log needs from inside the middleware chain. Every layer gets its own copy of
/// the context, so the authentication layer's caller would not reach the outer layer that logs;
/// this object is shared by all the copies.
public final class RequestTrace: Sendable {
    /// The TCP peer: the client, or the reverse proxy in front.
    public let peer: SocketAddress?
    private let caller = Mutex<Caller?>(nil)

    public init(peer: SocketAddress?) {
        self.peer = peer
    }

    /// Set by `AuthenticationMiddleware` once it knows who is calling.
    public func identify(_ caller: Caller) {
        self.caller.withLock { $0 = caller }
    }

    /// The caller as logged: the user's id, `api` for the Api-Token, `-` before authentication.
    public var callerID: String {
        switch caller.withLock({ $0 }) {
        case .admin: "api"
        case .user(let id): id
        case nil: "-"
        }
    }
}
