import Hummingbird
import ParleyContainer
import ParleyCore

/// Every endpoint of the server: the open ones (health) and those behind authentication (`/v3`).
struct Endpoints {
    let open: [Endpoint]
    let authenticated: [Endpoint]

    init(container: Container) {
        let maxBodyBytes = container.config.limits.jsonBodyBytes
        let files = FileController(files: container.files, authenticator: container.authenticator)
        open = HealthController(readiness: container.readiness).endpoints + files.downloadEndpoints
        let limits = container.config.limits
        let channelDTO: @Sendable (ChannelView) -> ChannelDTO = { ChannelDTO(view: $0, maxMessageLength: limits.messageLength) }
        authenticated = UserController(users: container.users, maxBodyBytes: maxBodyBytes).endpoints
            + MetadataController(
                service: container.userMetadata, ownerPath: "/v3/users/{user_id}", ownerParameter: "user_id", maxBodyBytes: maxBodyBytes
            ).endpoints
            + GroupChannelController(channels: container.groupChannels, lists: container.channelLists, limits: limits).endpoints
            + MembershipController(
                memberships: container.memberships, memberLists: container.memberLists, channelDTO: channelDTO, maxBodyBytes: maxBodyBytes
            ).endpoints
            + ChannelOperatorController(operators: container.channelOperators, channelDTO: channelDTO, maxBodyBytes: maxBodyBytes).endpoints
            + ChannelPreferenceController(
                preferences: container.channelPreferences, lists: container.channelLists, channelDTO: channelDTO, maxBodyBytes: maxBodyBytes
            ).endpoints
            + ReceiptController(receipts: container.receipts, maxBodyBytes: maxBodyBytes).endpoints
            + MessageController(messages: container.messages, files: container.files, limits: limits, clock: container.clock).endpoints
            + files.authenticatedEndpoints
            + MessageExtrasController(reactions: container.reactions, metaarrays: container.metaarrays, limits: limits).endpoints
            + MetadataController(
                service: container.channelMetadata, ownerPath: "/v3/group_channels/{channel_url}", ownerParameter: "channel_url",
                maxBodyBytes: maxBodyBytes
            ).endpoints
    }

    var table: RouteTable { RouteTable(endpoints: open + authenticated) }
}

/// The router with every endpoint, behind the middlewares, all taken from the container.
public func buildRouter(container: Container) -> Router<ParleyRequestContext> {
    let endpoints = Endpoints(container: container)
    let router = Router(context: ParleyRequestContext.self)
    router.add(middleware: ConventionsMiddleware(
        errors: ErrorResponses(routes: endpoints.table, maxBodyBytes: container.config.limits.jsonBodyBytes)
    ))
    for endpoint in endpoints.open {
        router.on(RouterPath(endpoint.path), method: endpoint.method, use: endpoint.handler)
    }
    // Middleware applies to the endpoints added after it: everything below needs a token.
    router.add(middleware: AuthenticationMiddleware(
        authenticator: container.authenticator,
        fileLinks: FileLinkIssuer(baseURL: container.config.resolvedPublicURL, keys: container.files.authKeys, clock: container.clock)
    ))
    for endpoint in endpoints.authenticated {
        router.on(RouterPath(endpoint.path), method: endpoint.method, use: endpoint.handler)
    }
    return router
}

/// The endpoints the server answers, as "METHOD /path"; the tests hold `openapi.yaml` to it.
public func routeTable(container: Container) -> RouteTable {
    Endpoints(container: container).table
}

/// The Hummingbird application serving `container` on the configured address.
public func buildApplication(container: Container) -> some ApplicationProtocol {
    Application(
        router: buildRouter(container: container),
        configuration: .init(address: .hostname(container.config.host, port: container.config.port), serverName: "parley"),
        services: container.services,
        logger: container.logger
    )
}
