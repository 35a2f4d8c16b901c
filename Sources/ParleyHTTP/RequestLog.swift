import Hummingbird
import Logging

/// One line per request at `info` (API.md §1): method, route template, status, duration,
/// request id (in the logger's metadata), caller and client address. Never the path's values,
/// the query, headers or bodies, so no token, key, message text or file name reaches the log.
struct RequestLog: Sendable {
    let clients: ForwardedClient

    /// Logs the request once its body has been written (a download's duration includes sending
    /// it). Hummingbird writes an in-memory body through the same writer calls, so wrapping it
    /// costs no extra write.
    func attach(
        to response: inout Response, request: Request, context: ParleyRequestContext, started: ContinuousClock.Instant
    ) {
        guard context.logger.logLevel <= .info else { return }
        let status = response.status.code
        let record = { @Sendable in log(request, status: status, context: context, started: started) }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
                record()
            } catch {
                record()
                throw error
            }
        }
    }

    private func log(_ request: Request, status: Int, context: ParleyRequestContext, started: ContinuousClock.Instant) {
        let origin = clients.origin(peer: context.trace.peer, headers: request.headers)
        let elapsed = (ContinuousClock.now - started) / .microseconds(1)
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "route": .string(context.endpointPath ?? "unmatched"),
                "status": .stringConvertible(status),
                "duration_ms": .string(Self.milliseconds(microseconds: Int(elapsed))),
                "caller": .string(context.trace.callerID),
                "client": .string(origin.address),
                "scheme": .string(origin.scheme)
            ])
    }

    /// `1234` µs → `1.234`.
    static func milliseconds(microseconds: Int) -> String {
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
