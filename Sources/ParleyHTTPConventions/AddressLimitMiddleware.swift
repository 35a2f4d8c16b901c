import HTTPTypes
import Hummingbird
import ParleyCore
import ParleyUsers

/// Requests per client address (issue 37, `AddressLimiter`), for every route but the probes:
/// an upload (a multipart body) is counted before its body is read, and every answer 401 counts
/// as a failed authentication (no credentials, wrong ones, an expired download link). The
/// address is the client's behind the trusted proxies (`PARLEY_TRUSTED_PROXIES`).
///
/// The limit on failed authentications protects capacity, not secrets (issue 50.4; the threat
/// model is in docs/API-NOTES.md): session and API tokens are long random secrets nobody guesses.
/// So an address over that limit is refused only for requests without valid credentials, which
/// get 429 where they would have got 401, at the cost of the authentication that found them
/// wanting and without being counted again; a request whose credentials are valid always passes,
/// so one bad client behind a NAT, an office's gateway or a misconfigured proxy locks nobody else
/// out.
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
        if Self.isUpload(request) {
            if let wait = limiter.refusal(.upload, address) { throw ParleyError.rateLimited(retryAfter: wait) }
            if let wait = await limiter.count(.upload, address) { throw ParleyError.rateLimited(retryAfter: wait) }
        }
        do {
            let response = try await next(request, context)
            if response.status == .unauthorized { try await failedAuthentication(address) }
            return response
        } catch let error as ParleyError where error.status == 401 {
            try await failedAuthentication(address)
            throw error
        }
    }

    /// Counts a failed authentication from `address`; when the address is already over its limit,
    /// throws 429 instead (and counts nothing: the database knows, and answered for it).
    private func failedAuthentication(_ address: String) async throws {
        if let wait = limiter.refusal(.authFailure, address) { throw ParleyError.rateLimited(retryAfter: wait) }
        _ = await limiter.count(.authFailure, address)
    }

    /// A request whose body is a multipart form: a file sent or stored.
    static func isUpload(_ request: Request) -> Bool {
        guard request.method == .post || request.method == .put,
            let type = request.headers[.contentType]
        else { return false }
        return type.utf8.count >= 10 && type.prefix(10).lowercased() == "multipart/"
    }
}
