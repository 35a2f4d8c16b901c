import CurlHTTP
import Foundation
import HTTPWire
import Logging
import OutboundPolicy
import ParleyChat
import ParleyCompliance
import ParleyCore
import ParleyEvents
import ParleyFiles
import ParleyLinkPreviews
import ParleyPush
import ParleyTranslation
import ParleyUsers
import ParleyWebhooks
import Postgres
import S3Storage

/// Everything the server reads from its environment, with the defaults docs/CONFIGURATION.md documents.
public struct Config: Sendable {
    public var databaseURL: String
    public var host = "127.0.0.1"
    public var port = 8080
    public var apiToken: String
    public var dataDirectory = "./.parley/data"
    public var migrationsDirectory = "./migrations"
    public var logLevel: Logger.Level = .info
    /// `PARLEY_LOG_FORMAT`: one line of text, or one JSON object, per log event.
    public var logFormat: LogFormat = .text
    /// `PARLEY_TRUSTED_PROXIES`: the reverse proxies whose `Forwarded`/`X-Forwarded-*` headers
    /// name the client; from anyone else they are ignored.
    public var trustedProxies: [IPNetwork] = []
    /// Failed authentications and uploads per client address (`AddressLimiter`).
    public var addressLimits = AddressLimitSettings()
    /// `PARLEY_METRICS`, `PARLEY_METRICS_PORT`: where `GET /metrics` is served.
    public var metrics: MetricsExposure = .apiToken
    /// A transaction (a send) holds its connection for several round trips, so more connections
    /// than cores keep PostgreSQL busy (measured on 2 cores: 16 beat 2, 8 and 32); single reads
    /// are pipelined on a few of them.
    public var databasePoolSize = 16
    /// How long a request waits for a database connection before it is answered 503, and how
    /// many may wait at once.
    public var databaseAcquireTimeout: Duration = .seconds(5)
    public var databaseMaxWaiting = 1024
    /// Statement, lock-wait and idle-transaction timeouts of every database session.
    public var databaseSession = SessionSettings()
    /// `DATABASE_READ_URL` and its settings (`Config+replicas`); nil: the primary serves every read.
    public var readReplicas: ReadReplicaSettings?
    public var autoMigrate = false
    /// `PARLEY_QUEUE_WORKERS` (`Config+instance`): whether this instance works the shared queues.
    public var queueWorkers = true
    /// API.md §3.7: whether members see messages sent before they joined.
    public var chatHistory = true
    /// Whether session users may choose their group channels' URLs (`ChatSettings`).
    public var sessionUsersChooseChannelURLs = true
    public var limits = Limits()
    /// The master key of stored files (`PARLEY_FILE_KEY`): 32 bytes. Set in code, it defaults to
    /// a random key, which suits tests only: files outlive the process, so a server needs it set.
    public var fileKey: [UInt8] = SecretHashing.randomBytes(32)
    /// Where uploaded files are stored; defaults to `files` under the data folder.
    public var fileDirectory: String?
    /// `PARLEY_S3_*` (`Config+files`): files live there with `PARLEY_FILE_STORE=s3`.
    public var s3: S3Settings?
    public var filesInObjectStore = false
    public var (tracing, tracingSampleRatio) = (false, 0.01)  // `PARLEY_TRACING*` (`Config+tracing`)
    /// The address clients reach this server at (behind a proxy, the proxy's), for file URLs.
    public var publicURL: String?
    /// The web pages' folder (`app/`, `console/`, `sdk/`), served at `/app/`, `/console/` and
    /// `/sdk/`; nil serves none.
    public var webDirectory: String?
    public var files = FileSettings()
    /// How long a client may take over a request's parts before its connection is closed.
    public var httpTimeouts = HTTPTimeouts()
    /// The event stream, presence and typing (API.md §6).
    public var events = EventSettings()
    /// API.md §11.3: hosts (`host` or `host:port`) outbound requests may reach at any address and port.
    public var outboundAllowHosts: [String] = []
    /// API.md §10: how webhook deliveries are attempted.
    public var webhookDelivery = WebhookDeliverySettings()
    /// API.md §12.6: how pushes are delivered.
    public var push = PushSettings()
    public var scheduledDelivery = ScheduledDeliverySettings()
    /// API.md §14: how background jobs (GDPR requests) are taken and held.
    public var jobs = JobSettings()
    /// API.md §12.5: the push providers.
    public var pushProviders = PushProviderSettings()
    /// API.md §11.1: link previews (`PARLEY_LINK_PREVIEWS`).
    public var linkPreviews = LinkPreviewSettings()
    /// `app_id` in webhook payloads.
    public var appID = "parley"
    /// Message search's share of the database (issue 50.1).
    public var search = SearchSettings()
    /// API.md §9: the translation provider.
    public var translation = TranslationSettings()
    public var translationSendLimit: Duration = .milliseconds(1500)
    public var translationLimit: Duration = .seconds(10)

    public init(databaseURL: String, apiToken: String) {
        self.databaseURL = databaseURL
        self.apiToken = apiToken
    }

    /// The base of file URLs in message payloads.
    public var resolvedPublicURL: String {
        publicURL ?? "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Reads `DATABASE_URL`, `PARLEY_*`; throws a message naming the variable that is wrong.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        let reader = EnvironmentReader(environment: environment)
        guard let databaseURL = environment["DATABASE_URL"], !databaseURL.isEmpty else {
            throw ConfigError("DATABASE_URL is not set (a libpq connection string or postgresql:// URI).")
        }
        guard let apiToken = environment["PARLEY_API_TOKEN"], !apiToken.isEmpty else {
            throw ConfigError("PARLEY_API_TOKEN is not set; it is the master token that clients send as Api-Token.")
        }
        guard apiToken.count >= 16 else { throw ConfigError("PARLEY_API_TOKEN must have at least 16 characters.") }
        var config = Config(databaseURL: databaseURL, apiToken: apiToken)
        config.host = environment["PARLEY_HOST"] ?? config.host
        config.port = try reader.int("PARLEY_PORT", default: config.port, range: 0...65535)
        config.dataDirectory = environment["PARLEY_DATA_DIR"] ?? config.dataDirectory
        config.migrationsDirectory = environment["PARLEY_MIGRATIONS_DIR"] ?? config.migrationsDirectory
        if let format = environment["PARLEY_LOG_FORMAT"], !format.isEmpty {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw ConfigError("PARLEY_LOG_FORMAT must be text or json, not \"\(format)\".")
            }
            config.logFormat = parsed
        }
        config.trustedProxies = try (environment["PARLEY_TRUSTED_PROXIES"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { text in
                guard let network = IPNetwork(text) else {
                    throw ConfigError("PARLEY_TRUSTED_PROXIES holds \"\(text)\", which is not an IP address or CIDR network.")
                }
                return network
            }
        try readInstanceRole(into: &config, reader)
        if let level = environment["PARLEY_LOG_LEVEL"] {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigError("PARLEY_LOG_LEVEL must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            config.logLevel = parsed
        }
        config.databasePoolSize = try reader.int("PARLEY_DB_POOL_SIZE", default: config.databasePoolSize, range: 1...256)
        config.databaseAcquireTimeout = .milliseconds(try reader.int("PARLEY_DB_ACQUIRE_TIMEOUT_MS", default: 5000, range: 1...600_000))
        config.databaseMaxWaiting = try reader.int("PARLEY_DB_MAX_WAITING", default: config.databaseMaxWaiting, range: 1...1_000_000)
        config.databaseSession.statementTimeout = .milliseconds(
            try reader.int("PARLEY_DB_STATEMENT_TIMEOUT_MS", default: 15000, range: 1...3_600_000))
        config.databaseSession.lockTimeout = .milliseconds(try reader.int("PARLEY_DB_LOCK_TIMEOUT_MS", default: 5000, range: 1...3_600_000))
        config.autoMigrate = try reader.bool("PARLEY_AUTO_MIGRATE", default: false)
        config.chatHistory = try reader.bool("PARLEY_CHAT_HISTORY", default: true)
        config.sessionUsersChooseChannelURLs = try reader.bool("PARLEY_SESSION_CHANNEL_URLS", default: true)
        var limits = Limits()
        limits.groupChannelMembers = try reader.int("PARLEY_MAX_GROUP_CHANNEL_MEMBERS", default: limits.groupChannelMembers)
        limits.superGroupMembers = try reader.int("PARLEY_MAX_SUPERGROUP_MEMBERS", default: limits.superGroupMembers)
        limits.openChannelParticipants = try reader.int("PARLEY_MAX_OPEN_CHANNEL_PARTICIPANTS", default: limits.openChannelParticipants)
        limits.messageLength = try reader.int("PARLEY_MAX_MESSAGE_LENGTH", default: limits.messageLength)
        limits.adminMessageLength = try reader.int("PARLEY_MAX_ADMIN_MESSAGE_LENGTH", default: limits.adminMessageLength)
        limits.dataBytes = try reader.int("PARLEY_MAX_DATA_BYTES", default: limits.dataBytes)
        limits.uploadBytes = try reader.int("PARLEY_MAX_UPLOAD_BYTES", default: limits.uploadBytes)
        limits.jsonBodyBytes = try reader.int("PARLEY_MAX_JSON_BODY_BYTES", default: limits.jsonBodyBytes)
        limits.messagesPerSecond = try reader.int("PARLEY_FLOOD_MESSAGES_PER_SECOND", default: limits.messagesPerSecond, range: 0...10_000)
        limits.reportsPerHour = try reader.int("PARLEY_REPORTS_PER_HOUR", default: limits.reportsPerHour, range: 0...100_000)
        limits.responseBytes = try reader.int("PARLEY_MAX_RESPONSE_BYTES", default: limits.responseBytes, range: 65_536...(1 << 30))
        limits.historyBytes = try reader.int("PARLEY_MAX_HISTORY_BYTES", default: limits.responseBytes, range: 65_536...(1 << 30))
        limits.reactionKeysPerMessage = try reader.int(
            "PARLEY_MAX_REACTION_KEYS_PER_MESSAGE", default: limits.reactionKeysPerMessage, range: 1...10_000)
        limits.reactionsPerUserPerMessage = try reader.int(
            "PARLEY_MAX_REACTIONS_PER_USER", default: limits.reactionsPerUserPerMessage, range: 1...10_000)
        let lifetime = try reader.int("PARLEY_SESSION_TOKEN_TTL_SECONDS", default: Int(limits.sessionTokenLifetimeMillis / 1000))
        limits.sessionTokenLifetimeMillis = Int64(lifetime) * 1000
        config.limits = limits
        guard let fileKey = environment["PARLEY_FILE_KEY"], !fileKey.isEmpty else {
            throw ConfigError(
                "PARLEY_FILE_KEY is not set: 32 random bytes, base64-encoded (openssl rand -base64 32); it encrypts uploaded files.")
        }
        guard let keyBytes = Data(base64Encoded: fileKey), keyBytes.count == 32 else {
            throw ConfigError("PARLEY_FILE_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32).")
        }
        config.fileKey = Array(keyBytes)
        config.fileDirectory = environment["PARLEY_FILE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        config.webDirectory = environment["PARLEY_WEB_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        config.publicURL = environment["PARLEY_PUBLIC_URL"].flatMap {
            $0.isEmpty ? nil : String($0.reversed().drop { $0 == "/" }.reversed())
        }
        config.files.thumbnailSourceMaxBytes = try reader.int(
            "PARLEY_THUMBNAIL_SOURCE_MAX_BYTES", default: config.files.thumbnailSourceMaxBytes)
        config.files.thumbnailSourceBudgetBytes = try reader.int(
            "PARLEY_THUMBNAIL_SOURCE_BUDGET_BYTES", default: config.files.thumbnailSourceBudgetBytes
        )
        config.files.maxImagePixels = try reader.int("PARLEY_THUMBNAIL_MAX_PIXELS", default: config.files.maxImagePixels)
        config.files.thumbnailTimeLimitSeconds = Double(
            try reader.int("PARLEY_THUMBNAIL_TIMEOUT_SECONDS", default: Int(config.files.thumbnailTimeLimitSeconds), range: 1...600)
        )
        let keyLifetime = try reader.int("PARLEY_FILE_AUTH_KEY_TTL_SECONDS", default: Int(config.files.authKeyLifetimeMillis / 1000))
        config.files.authKeyLifetimeMillis = Int64(keyLifetime) * 1000
        config.files.ffmpegPath = environment["PARLEY_FFMPEG"] ?? config.files.ffmpegPath
        config.files.ffmpegConcurrency = try reader.int("PARLEY_FFMPEG_CONCURRENCY", default: config.files.ffmpegConcurrency, range: 1...64)
        config.httpTimeouts.header = .seconds(try reader.int("PARLEY_HTTP_HEADER_TIMEOUT_SECONDS", default: 30, range: 1...3600))
        config.httpTimeouts.bodyProgress = .seconds(try reader.int("PARLEY_HTTP_BODY_TIMEOUT_SECONDS", default: 30, range: 1...3600))
        config.httpTimeouts.idle = .seconds(try reader.int("PARLEY_HTTP_IDLE_TIMEOUT_SECONDS", default: 75, range: 1...86400))
        config.events.retentionMillis = Int64(try reader.int("PARLEY_EVENT_RETENTION_HOURS", default: 24, range: 1...8760)) * 3_600_000
        config.events.openChannelMessagesPerSecond = try reader.int(
            "PARLEY_OPEN_CHANNEL_MESSAGES_PER_SECOND", default: config.events.openChannelMessagesPerSecond, range: 0...10_000)
        config.events.socketsPerUser = try reader.int("PARLEY_MAX_SOCKETS_PER_USER", default: config.events.socketsPerUser, range: 1...1000)
        config.events.socketQueueBytes = try reader.int(
            "PARLEY_EVENT_SOCKET_MAX_QUEUED_BYTES", default: config.events.socketQueueBytes, range: (1 << 20)...(1 << 30))
        try readTranslation(into: &config, reader)
        config.outboundAllowHosts = reader.list("PARLEY_OUTBOUND_ALLOW_HOSTS") ?? []
        config.linkPreviews.enabled = try reader.bool("PARLEY_LINK_PREVIEWS", default: true)
        config.linkPreviews.allowHosts = reader.list("PARLEY_LINK_PREVIEW_ALLOW_HOSTS") ?? []
        config.appID = environment["PARLEY_APP_ID"].flatMap { $0.isEmpty ? nil : $0 } ?? config.appID
        try readFairness(into: &config, reader)
        try readReplicas(into: &config, reader)
        try readPush(into: &config, reader)
        try readConversations(into: &config, reader)
        try readCompliance(into: &config, reader)
        try readFileStore(into: &config, reader)
        try readTracing(into: &config, reader)
        return config
    }

    private static func readTranslation(into config: inout Config, _ reader: EnvironmentReader) throws {
        let environment = reader.environment
        let name = environment["PARLEY_TRANSLATION_PROVIDER"].flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "none"
        guard let provider = TranslationSettings.Provider(rawValue: name) else {
            let names = TranslationSettings.Provider.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigError("PARLEY_TRANSLATION_PROVIDER must be one of \(names), not \"\(name)\".")
        }
        config.translation.provider = provider
        config.translation.url = environment["PARLEY_TRANSLATION_URL"].flatMap { $0.isEmpty ? nil : $0 }
        config.translation.key = environment["PARLEY_TRANSLATION_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let problem = config.translation.problem { throw ConfigError(problem) }
        config.translationSendLimit = .milliseconds(try reader.int("PARLEY_TRANSLATION_SEND_LIMIT_MS", default: 1500, range: 0...60_000))
        config.translationLimit = .milliseconds(try reader.int("PARLEY_TRANSLATION_TIMEOUT_MS", default: 10_000, range: 100...120_000))
    }
}

public enum LogFormat: String, Sendable {
    case text, json
}

/// Where `GET /metrics` is served.
public enum MetricsExposure: Sendable, Equatable {
    case off
    /// On the API port, to the `Api-Token` only.
    case apiToken
    /// On a port of its own, to anyone who can reach it (bind it to a private address).
    case port(host: String, port: Int)
}
