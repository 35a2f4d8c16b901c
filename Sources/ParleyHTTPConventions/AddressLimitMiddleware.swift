import HTTPTypes
import Hummingbird
import ParleyCore
import ParleyUsers

/// Requests per client address (issue 37, `AddressLimiter`), for every route but the probes:
/// an address refused for failed authentications gets 429 before anything else is looked at,
/// an upload (a multipart body) is counted before its body is read, and every answer 401
/// counts as a failed authentication (no credentials, wrong ones, an expired download link).
/// The address is the client's behind the trusted proxies (`PARLEY_TRUSTED_PROXIES`).
public struct AddressLimitMiddleware: RouterMiddleware {
    public typealias Context = ParleyRequestContext
    public let limiter: AddressLimiter

    public init(limiter: AddressLimiter) {
        self.limiter = limiter
    }

    /// Load balancers' and orchestrators' probes are never refused.
    static let exempt: Set<String> = ["/health", "/ready"]

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.exempt.contains(request.uri.path) else { return try await next(request, context) }
        let address = context.clients.origin(peer: context.trace.peer, headers: request.headers).address
        if let wait = limiter.refusal(.authFailure, address) { throw ParleyError.rateLimited(retryAfter: wait) }
        if Self.isUpload(request) {
            if let wait = limiter.refusal(.upload, address) { throw ParleyError.rateLimited(retryAfter: wait) }
            if let wait = await limiter.count(.upload, address) { throw ParleyError.rateLimited(retryAfter: wait) }
        }
        do {
            let response = try await next(request, context)
            if response.status == .unauthorized { _ = await limiter.count(.authFailure, address) }
            return response
        } catch let error as ParleyError where error.status == 401 {
            _ = await limiter.count(.authFailure, address)
            throw error
        }
    }

    /// A request whose body is a multipart form: a file sent or stored.
    static func isUpload(_ request: Request) -> Bool {
        guard request.method == .post || request.method == .put,
            let type = request.headers[.contentType]
        else { return false }
        return type.utf8.count >= 10 && type.prefix(10).lowercased() == "multipart/"
    }
}
