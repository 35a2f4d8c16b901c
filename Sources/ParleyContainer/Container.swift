import Crypto
import CurlHTTP
import Foundation
import Logging
import OutboundPolicy
import OwnedTasks
import ParleyBots
import ParleyChat
import ParleyCompliance
import ParleyCore
import ParleyEvents
import ParleyFiles
import ParleyLinkPreviews
import ParleyModeration
import ParleyPush
import ParleyStore
import ParleyTranslation
import ParleyUsers
import ParleyWebhooks
import Postgres
import Prometheus
import S3Storage
import ServiceLifecycle

/// The services of one server process, built once from `Config`: the only place where concrete
/// implementations are chosen. `ParleyHTTP` takes everything it needs from here.
public struct Container: Sendable {
    public let config: Config
    public let logger: Logger
    public let clock: Clock
    public let authenticator: Authenticator
    /// Secondary API tokens and the API tokens' IP allow-list (API.md §14.7).
    public let apiAccess: ApiAccess
    /// Failed authentications and uploads per client address (issue 37).
    public let addressLimits: AddressLimiter
    public let users: UserService
    public let userMetadata: UserMetadataService
    public let groupChannels: GroupChannelService
    public let openChannels: OpenChannelService
    public let participants: ParticipantService
    public let channelLists: ChannelListService
    public let memberships: MembershipService
    public let memberLists: MemberListService
    public let channelOperators: ChannelOperatorService
    public let channelPreferences: ChannelPreferenceService
    public let channelMetadata: ChannelMetadataService
    public let channelMetacounters: ChannelMetacounterService
    public let pins: PinService
    public let scheduledMessages: ScheduledMessageService
    public let polls: PollService
    public let messageSearch: MessageSearchService
    public let messages: MessageService
    public let receipts: ReceiptService
    public let reactions: ReactionService
    public let metaarrays: MetaArrayService
    public let changelogs: ChangelogService
    public let moderation: ModerationService
    /// Bans and mutes by channel custom type (API.md §14.7).
    public let customTypeModeration: CustomTypeModerationService
    /// Domain and profanity filters by channel custom type (API.md §14.7).
    public let messageFilters: MessageFilterService
    public let auditLogs: AuditLogService
    public let blocks: BlockService
    public let pushTokens: PushTokenService
    public let pushPreferences: PushPreferenceService
    public let pushTemplates: PushTemplateService
    /// The configured push providers (API.md §12.5): what the API lists of them, and the VAPID key.
    public let pushProviders: PushProviders
    public let reports: ReportService
    /// The kinds of channel whose moderation routes exist.
    public let moderatedChannelKinds: [ChannelKind]
    public let files: FileService
    /// The translation provider behind messages (for `parley doctor`'s reachability check).
    public let translator: MessageTranslator
    public let webhooks: WebhookService
    public let gdpr: GDPRService
    public let statistics: StatisticsService
    public let exports: ExportService
    public let emojis: EmojiService
    public let autoEventMessages: AutoEventMessageService
    public let bots: BotService
    public let announcements: AnnouncementService
    public let realtime: Realtime
    public let readiness: ReadinessProbe
    /// What `GET /metrics` shows: the registry the process's metrics backend writes to.
    public let metricsRegistry: PrometheusCollectorRegistry
    /// Long-running parts the application must run and shut down (the connection pool).
    public let services: [any Service]
    /// Closes what `services` would close on graceful shutdown, for callers that never run them.
    public let shutdown: @Sendable () async -> Void

    /// - Parameter metricsRegistry: the registry `MetricsSystem` was bootstrapped with (the
    ///   server's); metrics recorded elsewhere are not in it.
    public static func live(
        config: Config, logger: Logger, clock: Clock = .system, metricsRegistry: PrometheusCollectorRegistry = .init()
    ) throws -> Container {
        let database = DatabasePools(config: config, logger: logger)
        let (pool, store) = (database.primary, database.store)
        let keys = ServerKeys(masterKey: SymmetricKey(data: config.fileKey))
        let pageTokens = PageTokenCodec(key: keys.pageTokens)
        let accessCodes = AccessCodes(key: keys.accessCodes)
        let settings = config.chatSettings
        // Every outbound request of the process goes through this one client (its connections are reused).
        let outbound = CurlClient(userAgent: "Parley")
        // The owner of every task that outlives the call starting it; drained first at shutdown
        // (last in `services`), while the pool still serves.
        let tasks = TaskOwner(logger: logger)
        let translator = MessageTranslator(config.translation.translator(client: outbound), tasks: tasks)
        // The guard of the operator's own destinations (the webhook URL, bots' callbacks, the push
        // providers and listed Web Push services): they may use `PARLEY_OUTBOUND_ALLOW_HOSTS`.
        let outboundGuard = OutboundGuard(allowHosts: config.outboundAllowHosts)
        var previewSettings = config.linkPreviews
        // This server's own URLs are never previewed.
        if let host = URLComponents(string: config.resolvedPublicURL)?.host?.lowercased() { previewSettings.ownHosts.insert(host) }
        // Links are users' choice: their guard has none of the operator's exemptions.
        let previewer = LinkPreviewer(
            store: store, client: outbound, outbound: OutboundGuard(allowHosts: previewSettings.allowHosts), clock: clock,
            settings: previewSettings, logger: logger)
        let previews = PreviewQueue(
            workers: previewSettings.concurrency, runningPerUser: previewSettings.runningPerUser, heldPerUser: previewSettings.perUser,
            logger: logger)
        let webhookDispatcher = WebhookDispatcher(
            store: store, client: outbound, outbound: outboundGuard, clock: clock, settings: config.webhookDelivery,
            apiToken: config.apiToken, appID: config.appID, logger: logger)
        let migrator = Migrator(directory: URL(fileURLWithPath: config.migrationsDirectory), logger: logger)
        var fileSettings = config.files
        fileSettings.maxUploadBytes = Int64(config.limits.uploadBytes)
        let fileStorage = try FileStorage(
            root: config.resolvedFileDirectory,
            objects: try config.objectStore.map { try S3Client(http: outbound, settings: $0) })
        // libvips's operation cache stays off (it never hits for uploads, and would keep decoded
        // images); its threads per image are capped.
        try Thumbnailer.start(cacheMaxBytes: 0, concurrency: min(ProcessInfo.processInfo.activeProcessorCount, 4))
        let fileAuthKeys = FileAuthKeys(signingKey: keys.fileAuthKeys, lifetimeMillis: fileSettings.authKeyLifetimeMillis)
        let files = FileService(
            storage: fileStorage, keyring: try FileKeyring(masterKey: config.fileKey), authKeys: fileAuthKeys,
            store: store, clock: clock, settings: fileSettings, logger: logger
        )
        let memberships = MembershipService(store: store, clock: clock, settings: settings, accessCodes: accessCodes)
        let moderatedChannels: [ChannelKind: any ModeratedChannels] = [.group: GroupChannelModeration(), .open: OpenChannelModeration()]
        let participants = ParticipantService(store: store, clock: clock, pageTokens: pageTokens, settings: settings)
        let pushProviders = try config.pushProviders.providers(outbound: outboundGuard, clock: clock)
        let pushDispatcher = PushDispatcher(
            store: store, providers: pushProviders, settings: config.push, clock: clock, fileBaseURL: config.resolvedPublicURL,
            fileKeys: fileAuthKeys, appID: config.appID, logger: logger)
        // Who was active today (API.md §14.5), written by the `StatisticsRecorder`.
        let activity = ActivityLog()
        let authenticator = Authenticator(apiToken: config.apiToken, store: store, clock: clock, activity: activity)
        let moderation = ModerationService(store: store, clock: clock, pageTokens: pageTokens, channels: moderatedChannels)
        let filters = MessageFilters(store: store, clock: clock, moderation: moderation, logger: logger)
        let messages = MessageService(
            store: store, clock: clock, settings: settings, files: files, translator: translator, tasks: tasks, previewer: previewer,
            previews: previews, activity: activity, filters: filters)
        let scheduledDelivery = ScheduledMessageDelivery(
            store: store, clock: clock, messages: messages, settings: config.scheduledDelivery, logger: logger)
        let users = UserService(store: store, clock: clock, limits: config.limits, pageTokens: pageTokens, departure: memberships)
        let groupChannels = GroupChannelService(store: store, clock: clock, settings: settings, accessCodes: accessCodes, files: files)
        let archives = SignedLinks(
            key: keys.archiveLinks, baseURL: config.resolvedPublicURL, lifetimeMillis: config.jobs.archiveLifetime.milliseconds)
        let jobs = Self.jobRunner(
            config, store: store, clock: clock, users: users, groupChannels: groupChannels, messages: messages, files: files,
            archives: archives, logger: logger)
        // The workers of the queues every instance shares (jobs include the stored files' sweep),
        // each claim leased in the database: any number of instances may run them; API-only
        // instances (`PARLEY_QUEUE_WORKERS=false`) do not.
        let queueWorkers: [any Service] = [
            webhookDispatcher, pushDispatcher,
            ScheduledMessageDispatcher(store: store, delivery: scheduledDelivery, settings: config.scheduledDelivery, logger: logger), jobs
        ]
        let realtime = Realtime(
            store: store, conninfo: config.databaseURL, settings: config.events, participation: participants, clock: clock, logger: logger,
            tasks: tasks)
        return Container(
            config: config,
            logger: logger,
            clock: clock,
            authenticator: authenticator,
            apiAccess: ApiAccess(store: store, clock: clock, authenticator: authenticator),
            addressLimits: AddressLimiter(store: store, clock: clock, settings: config.addressLimits),
            users: users,
            userMetadata: UserMetadataService(store: store),
            groupChannels: groupChannels,
            openChannels: OpenChannelService(store: store, clock: clock, pageTokens: pageTokens, files: files),
            participants: participants,
            channelLists: ChannelListService(store: store, pageTokens: pageTokens, clock: clock),
            memberships: memberships,
            memberLists: MemberListService(store: store, pageTokens: pageTokens, clock: clock),
            channelOperators: ChannelOperatorService(store: store),
            channelPreferences: ChannelPreferenceService(store: store, clock: clock),
            channelMetadata: ChannelMetadataService(store: store, clock: clock),
            channelMetacounters: ChannelMetacounterService(store: store, clock: clock),
            pins: PinService(store: store, clock: clock, limits: config.limits, pageTokens: pageTokens),
            scheduledMessages: ScheduledMessageService(
                store: store, clock: clock, limits: config.limits, pageTokens: pageTokens, delivery: scheduledDelivery),
            polls: PollService(store: store, clock: clock, pageTokens: pageTokens, limits: config.limits),
            messageSearch: MessageSearchService(store: database.searchStore, pageTokens: pageTokens, settings: config.search),
            messages: messages,
            receipts: ReceiptService(store: store, clock: clock),
            reactions: ReactionService(store: store, clock: clock, limits: config.limits),
            metaarrays: MetaArrayService(store: store, clock: clock),
            changelogs: ChangelogService(store: store, pageTokens: pageTokens),
            moderation: moderation,
            customTypeModeration: CustomTypeModerationService(
                store: store, clock: clock, pageTokens: pageTokens, channels: moderatedChannels),
            messageFilters: MessageFilterService(store: store, clock: clock, filters: filters),
            auditLogs: AuditLogService(store: store, pageTokens: pageTokens),
            blocks: BlockService(store: store, clock: clock, pageTokens: pageTokens),
            pushTokens: PushTokenService(
                store: store, clock: clock, pageTokens: pageTokens, webPushServices: config.pushProviders.webPushServices),
            pushPreferences: PushPreferenceService(store: store),
            pushTemplates: PushTemplateService(store: store),
            pushProviders: pushProviders,
            reports: ReportService(
                store: store, clock: clock, pageTokens: pageTokens, channels: moderatedChannels,
                reportsPerHour: config.limits.reportsPerHour),
            moderatedChannelKinds: ChannelKind.allCases.filter { moderatedChannels[$0] != nil },
            files: files,
            translator: translator,
            webhooks: WebhookService(store: store, clock: clock, outbound: outboundGuard, pageTokens: pageTokens),
            gdpr: GDPRService(store: store, clock: clock, pageTokens: pageTokens, archives: archives, files: files),
            statistics: StatisticsService(store: store, clock: clock),
            exports: ExportService(store: store, clock: clock, pageTokens: pageTokens, links: archives, files: files),
            emojis: EmojiService(store: store, clock: clock),
            autoEventMessages: AutoEventMessageService(store: store),
            bots: BotService(
                store: store, clock: clock, outbound: outboundGuard, pageTokens: pageTokens, users: users, memberships: memberships,
                messages: messages),
            announcements: AnnouncementService(store: store, clock: clock, pageTokens: pageTokens),
            realtime: realtime,
            readiness: ReadinessProbe(pool: pool, migrator: migrator),
            metricsRegistry: metricsRegistry,
            // Stopped in reverse order: the queue workers before the outbound client they send through.
            services: database.services + [
                FileSweeper(storage: fileStorage, logger: logger), realtime, previews, OutboundHTTP(client: outbound)
            ]
                + (config.queueWorkers ? queueWorkers : [])
                + [
                    StatisticsRecorder(
                        store: store, activity: activity, clock: clock, interval: config.jobs.statisticsInterval, logger: logger),
                    tasks
                ],
            shutdown: {
                await tasks.drain(within: tasks.shutdownGrace)
                outbound.shutdown()
                await database.close()
            }
        )
    }
}
