import Hummingbird
import ParleyCore

/// The per-request state: Hummingbird's core context plus the authenticated caller.
public struct ParleyRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` for every `/v3` request.
    public var actor: Actor?

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// The caller; every `/v3` route runs behind the authentication middleware, so this is set.
    func requireActor() throws -> Actor {
        guard let actor else { throw ParleyError.invalidApiToken }
        return actor
    }
}
