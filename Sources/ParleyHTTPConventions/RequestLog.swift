import Hummingbird
import Logging

/// One line per request at `info` (API.md §1): method, route template, status, duration,
/// request id (in the logger's metadata), caller and client address. Never the path's values,
/// the query, headers or bodies, so no token, key, message text or file name reaches the log.
public struct RequestLog: Sendable {
    public let clients: ForwardedClient

    public init(clients: ForwardedClient) {
        self.clients = clients
    }

    /// Logs the request when its handler has returned (a download's streaming is not included:
    /// waiting for the body to be written would cost every request a wrapped body).
    public func record(
        _ request: Request, route: String, status: Int, context: ParleyRequestContext, since started: ContinuousClock.Instant
    ) {
        guard context.logger.logLevel <= .info else { return }
        let origin = clients.origin(peer: context.trace.peer, headers: request.headers)
        let elapsed = (ContinuousClock.now - started) / .microseconds(1)
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "route": .string(route),
                "status": .stringConvertible(status),
                "duration_ms": .string(Self.milliseconds(microseconds: Int(elapsed))),
                "caller": .string(context.trace.callerID),
                "client": .string(origin.address),
                "scheme": .string(origin.scheme)
            ])
    }

    /// `1234` µs → `1.234`.
    public static func milliseconds(microseconds: Int) -> String {
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
