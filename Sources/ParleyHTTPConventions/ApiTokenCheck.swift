import Hummingbird
import ParleyCore
import ParleyUsers

/// `Api-Token` as every route takes it (API.md §1.7, §14.7): the master or a secondary token,
/// used from an address the allow-list admits (the client behind the trusted proxies,
/// `PARLEY_TRUSTED_PROXIES`); 401/400401 for a wrong token, 403/400108 from elsewhere.
public struct ApiTokenCheck: Sendable {
    public let authenticator: Authenticator
    public let access: ApiAccess

    public init(authenticator: Authenticator, access: ApiAccess) {
        self.authenticator = authenticator
        self.access = access
    }

    public func authenticate(_ token: String, _ request: Request, _ context: ParleyRequestContext) async throws -> Authentication {
        let authentication = try await authenticator.authenticate(apiToken: token)
        let address = { context.clients.origin(peer: context.trace.peer, headers: request.headers).address }
        guard try await access.admits(address()) else {
            throw ParleyError.forbidden("API tokens are not accepted from this address (the IP allow-list).")
        }
        return authentication
    }
}
