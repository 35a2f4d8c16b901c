import Hummingbird
import ParleyCore

/// The per-request state of every route: Hummingbird's core context, plus the caller once
/// `AuthenticationMiddleware` has established who it is, and how JSON bodies are read.
public struct ParleyRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` on the `/v3` group.
    public var caller: Caller?
    /// The JSON body limit (`Limits.jsonBodyBytes`), set by `ConventionsMiddleware` from the
    /// configuration: `request.decode` refuses a larger body with 413.
    public var maxUploadSize = Limits().jsonBodyBytes
    public var requestDecoder: JSONRequestDecoder { .init() }
    /// Shared by every layer's copy of this context, for the request log.
    public let trace: RequestTrace
    /// Who the client is behind the trusted proxies (set by `ConventionsMiddleware`), for the
    /// API tokens' allow-list.
    public var clients = ForwardedClient(trusted: [])

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.trace = RequestTrace(peer: source.channel.remoteAddress)
    }
}

/// The context of the authenticated `/v3` routes: the caller is known, so handlers take it as it
/// is instead of each checking for it.
public struct CallerContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let caller: Caller
    public let maxUploadSize: Int
    public var requestDecoder: JSONRequestDecoder { .init() }

    public init(context: ParleyRequestContext) throws {
        // Only reachable behind the authentication middleware, which sets the caller or throws.
        guard let caller = context.caller else { throw ParleyError.invalidApiToken }
        self.coreContext = context.coreContext
        self.caller = caller
        self.maxUploadSize = context.maxUploadSize
    }
}
