import ByteCoding
import HTTPTypes
import HTTPWire
import Hummingbird
import ParleyContainer
import ParleyCore
import ParleyEventStream
import ParleyHTTPConventions
import ParleyRepresentations
import ServiceLifecycle

/// Adds every endpoint of the server to `router`: the open ones (health, downloads) and the
/// `/v3` group behind authentication, whose handlers get the caller in `CallerContext`.
private func addEndpoints(to router: Router<ParleyRequestContext>, container: Container) {
    let limits = container.config.limits
    let apiTokens = ApiTokenCheck(authenticator: container.authenticator, access: container.apiAccess)
    let files = FileController(files: container.files, apiTokens: apiTokens)
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO = { ChannelDTO(view: $0, maxMessageLength: limits.messageLength) }
    let resourceDTO: @Sendable (ChannelResource) -> ChannelResourceDTO = {
        ChannelResourceDTO(resource: $0, maxMessageLength: limits.messageLength)
    }
    router.addRoutes(HealthController(readiness: container.readiness).routes)
    if container.config.metrics == .apiToken {
        router.addRoutes(MetricsController(registry: container.metricsRegistry, apiTokens: apiTokens).routes)
    }
    router.addRoutes(files.downloadRoutes, atPath: "v3")
    router.addRoutes(GDPRController(gdpr: container.gdpr).downloadRoutes, atPath: "v3")
    router.addRoutes(ExportController(exports: container.exports).downloadRoutes, atPath: "v3")
    router.addRoutes(EventStreamController.plainRoutes(), atPath: "v3")
    // Group middleware runs for the group's routes only: an unknown path or a wrong method
    // never asks for a token.
    let v3 = router.group("v3")
        .add(
            middleware: AuthenticationMiddleware(
                apiTokens: apiTokens,
                fileLinks: FileLinkIssuer(
                    baseURL: container.config.resolvedPublicURL, keys: container.files.authKeys, clock: container.clock)
            )
        )
        .group(context: CallerContext.self)
    v3.addRoutes(UserController(users: container.users).routes)
    v3.addRoutes(MetadataController(service: container.userMetadata, ownerPath: "users/{user_id}", ownerParameter: "user_id").routes)
    v3.addRoutes(GroupChannelController(channels: container.groupChannels, lists: container.channelLists, limits: limits).routes)
    v3.addRoutes(OpenChannelController(channels: container.openChannels, participants: container.participants, limits: limits).routes)
    v3.addRoutes(
        MembershipController(memberships: container.memberships, memberLists: container.memberLists, channelDTO: channelDTO).routes)
    v3.addRoutes(ChannelOperatorController(operators: container.channelOperators, channelDTO: channelDTO).routes)
    v3.addRoutes(
        ChannelPreferenceController(
            preferences: container.channelPreferences, lists: container.channelLists, channelDTO: channelDTO
        ).routes)
    v3.addRoutes(
        ModerationController(
            moderation: container.moderation, auditLogs: container.auditLogs, clock: container.clock, channelDTO: resourceDTO,
            kinds: container.moderatedChannelKinds
        ).routes)
    v3.addRoutes(CustomTypeModerationController(moderation: container.customTypeModeration).routes)
    v3.addRoutes(MessageFilterController(filters: container.messageFilters).routes)
    v3.addRoutes(BlockController(blocks: container.blocks).routes)
    v3.addRoutes(PushTokenController(tokens: container.pushTokens).routes)
    v3.addRoutes(PushPreferenceController(preferences: container.pushPreferences).routes)
    v3.addRoutes(PushTemplateController(templates: container.pushTemplates).routes)
    v3.addRoutes(PushProviderController(providers: container.pushProviders).routes)
    v3.addRoutes(WebhookController(webhooks: container.webhooks).routes)
    v3.addRoutes(GDPRController(gdpr: container.gdpr).routes)
    v3.addRoutes(ExportController(exports: container.exports).routes)
    v3.addRoutes(StatisticsController(statistics: container.statistics).routes)
    v3.addRoutes(ApiAccessController(access: container.apiAccess).routes)
    v3.addRoutes(EmojiController(emojis: container.emojis).routes)
    v3.addRoutes(AutoEventMessageController(service: container.autoEventMessages).routes)
    v3.addRoutes(AnnouncementController(announcements: container.announcements, limits: limits).routes)
    v3.addRoutes(BotController(bots: container.bots, limits: limits, channelDTO: channelDTO).routes)
    v3.addRoutes(ReportController(reports: container.reports, kinds: container.moderatedChannelKinds).routes)
    v3.addRoutes(ReceiptController(receipts: container.receipts).routes)
    v3.addRoutes(UnreadItemController(receipts: container.receipts).routes)
    v3.addRoutes(TypingController(realtime: container.realtime).routes)
    v3.addRoutes(ChangelogController(changelogs: container.changelogs, channelDTO: channelDTO).routes)
    for kind in ChannelKind.allCases {
        v3.addRoutes(
            MessageController(kind: kind, messages: container.messages, files: container.files, limits: limits, clock: container.clock)
                .routes)
        v3.addRoutes(
            MessageExtrasController(kind: kind, reactions: container.reactions, metaarrays: container.metaarrays, limits: limits).routes)
        v3.addRoutes(
            MetadataController(
                service: ChannelMetadataOfKind(service: container.channelMetadata, kind: kind),
                ownerPath: "\(kind.pathSegment)/{channel_url}", ownerParameter: "channel_url"
            ).routes)
        v3.addRoutes(MetacounterController(service: container.channelMetacounters, kind: kind).routes)
        v3.addRoutes(PinController(pins: container.pins, kind: kind, channel: channelResource(kind, container)).routes)
    }
    v3.addRoutes(ScheduledMessageController(scheduled: container.scheduledMessages, files: container.files, limits: limits).routes)
    v3.addRoutes(PollController(polls: container.polls, limits: limits, clock: container.clock).routes)
    v3.addRoutes(SearchController(search: container.messageSearch, limits: limits).routes)
    v3.addRoutes(files.routes)
}

/// The channel resource of `kind` as `GET` on the channel answers it to the caller.
private func channelResource(_ kind: ChannelKind, _ container: Container) -> @Sendable (Caller, String) async throws -> any JSONWritable {
    let maxMessageLength = container.config.limits.messageLength
    switch kind {
    case .group:
        return { caller, url in
            ChannelDTO(
                view: try await container.groupChannels.get(caller, url, viewerID: nil, showMembers: false),
                maxMessageLength: maxMessageLength)
        }
    case .open:
        return { caller, url in
            OpenChannelDTO(channel: try await container.openChannels.get(caller, url), maxMessageLength: maxMessageLength)
        }
    }
}

/// The router with every endpoint, behind the middlewares, all taken from the container.
public func buildRouter(container: Container) -> Router<ParleyRequestContext> {
    let router = Router(context: ParleyRequestContext.self)
    router.add(
        middleware: ConventionsMiddleware(
            errors: ErrorResponses(), maxJSONBodyBytes: container.config.limits.jsonBodyBytes,
            maxResponseBytes: container.config.limits.responseBytes,
            requestLog: RequestLog(clients: ForwardedClient(trusted: container.config.trustedProxies)),
            metrics: container.config.metrics == .off ? nil : RequestMetrics()))
    router.add(middleware: AddressLimitMiddleware(limiter: container.addressLimits))
    if let directory = container.config.webDirectory { WebPages.add(to: router, directory: directory) }
    addEndpoints(to: router, container: container)
    MethodNotAllowed.register(on: router)
    return router
}

/// The endpoints the server answers, as "METHOD /path"; the tests hold `openapi.yaml` to it.
public func servedRoutes(container: Container) -> [String] {
    let router = Router(context: ParleyRequestContext.self)
    addEndpoints(to: router, container: container)
    return router.routes.map { "\($0.method.rawValue) \($0.path)" }
}

/// The event stream behind WebSocket upgrades.
func buildEventStream(container: Container) -> EventStreamController {
    EventStreamController(
        realtime: container.realtime, participants: container.participants, authenticator: container.authenticator,
        fileLinks: FileLinkIssuer(baseURL: container.config.resolvedPublicURL, keys: container.files.authKeys, clock: container.clock),
        maxMessageLength: container.config.limits.messageLength, logger: container.logger,
        addressLimits: container.addressLimits, clients: ForwardedClient(trusted: container.config.trustedProxies)
    )
}

/// The Hummingbird application serving `container` on the configured address (and `/metrics`
/// on a port of its own when configured so).
public func buildApplication(container: Container, with more: [any Service] = []) -> some ApplicationProtocol {
    var services = container.services + more
    if case .port(let host, let port) = container.config.metrics {
        let router = Router(context: ParleyRequestContext.self)
        router.addRoutes(MetricsController(registry: container.metricsRegistry, apiTokens: nil).routes)
        services.append(
            Application(
                router: router, configuration: .init(address: .hostname(host, port: port), serverName: "parley-metrics"),
                logger: container.logger))
    }
    return Application(
        router: buildRouter(container: container),
        server: .guardedHTTP1(
            timeouts: container.config.httpTimeouts, webSocket: buildEventStream(container: container),
            faultAnswers: ErrorResponses.protocolFaultAnswers),
        configuration: .init(address: .hostname(container.config.host, port: container.config.port), serverName: "parley"),
        services: services,
        logger: container.logger
    )
}
