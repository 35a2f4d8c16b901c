import CurlHTTP
import OutboundPolicy
import ParleyCore
import ParleyStore

/// A change to the webhook settings (API.md §10.1); nil fields stay.
public struct WebhookSettingsUpdate: Sendable {
    public var enabled: Bool?
    public var url: String?
    public var enabledEvents: [String]?
    public var includeMembers: Bool?

    public init(enabled: Bool? = nil, url: String? = nil, enabledEvents: [String]? = nil, includeMembers: Bool? = nil) {
        self.enabled = enabled
        self.url = url
        self.enabledEvents = enabledEvents
        self.includeMembers = includeMembers
    }
}

/// The webhook settings and the delivery log (API.md §10): the admin's only.
///
/// Which events become deliveries is decided in SQL, by the statement that writes a
/// transaction's events (`EventRepository.flush`), so that a delivery commits with its change:
/// an event is queued when the webhook is enabled with a URL and `enabled_events` holds `*` or
/// the event's category (`WebhookCategory.of`, computed in Swift and passed to the statement).
public struct WebhookService: Sendable {
    let store: Store
    let clock: Clock
    let outbound: OutboundGuard
    let pageTokens: PageTokenCodec

    public init(store: Store, clock: Clock, outbound: OutboundGuard, pageTokens: PageTokenCodec) {
        self.store = store
        self.clock = clock
        self.outbound = outbound
        self.pageTokens = pageTokens
    }

    /// How long the secret before a rotation still signs.
    public static let rotationOverlapMillis: Int64 = 24 * 3_600_000

    public func settings(_ caller: Caller) async throws -> WebhookSettings {
        try caller.requireAdmin()
        let (secret, now) = (WebhookSigner.newSecret(), clock.nowMillis)
        return try await store.transaction { try $0.webhooks.ensureSettings(secret: secret, now: now) }
    }

    /// Applies `update`; a URL the outbound guard refuses (API.md §11.2) is 400111 now rather
    /// than a failed delivery later.
    public func update(_ caller: Caller, _ update: WebhookSettingsUpdate) async throws -> WebhookSettings {
        try caller.requireAdmin()
        if let events = update.enabledEvents {
            for event in events where event != "*" && !WebhookCategory.all.contains(event) {
                throw ParleyError.invalidValue("enabled_events", "\"\(event)\" is not a webhook category")
            }
        }
        if let url = update.url, !url.isEmpty {
            do {
                _ = try await outbound.check(url)
            } catch let refusal as OutboundRefusal {
                throw ParleyError.invalidValue("url", "not a destination webhooks may reach (\(refusal))")
            }
        }
        let (secret, now) = (WebhookSigner.newSecret(), clock.nowMillis)
        return try await store.transaction { repositories in
            var settings = try repositories.webhooks.ensureSettings(secret: secret, now: now)
            if let enabled = update.enabled { settings.enabled = enabled }
            if let url = update.url { settings.url = url }
            if let events = update.enabledEvents { settings.enabledEvents = events }
            if let includeMembers = update.includeMembers { settings.includeMembers = includeMembers }
            if settings.enabled && settings.url.isEmpty { throw ParleyError.invalidValue("url", "an enabled webhook needs a URL") }
            try repositories.webhooks.update(settings, now: now)
            return settings
        }
    }

    /// A new secret; the old one signs beside it for `rotationOverlapMillis`.
    public func rotateSecret(_ caller: Caller) async throws -> WebhookSettings {
        try caller.requireAdmin()
        let (secret, fresh, now) = (WebhookSigner.newSecret(), WebhookSigner.newSecret(), clock.nowMillis)
        return try await store.transaction { repositories in
            var settings = try repositories.webhooks.ensureSettings(secret: secret, now: now)
            settings.previousSecret = settings.secret
            settings.previousSecretUntil = now + Self.rotationOverlapMillis
            settings.secret = fresh
            try repositories.webhooks.update(settings, now: now)
            return settings
        }
    }

    /// The delivery log, newest first.
    public func deliveries(_ caller: Caller, status: WebhookDeliveryStatus?, limit: Int, pageToken: String?) async throws
        -> Page<WebhookDelivery>
    {
        try caller.requireAdmin()
        let scope = "webhook-deliveries|\(status?.rawValue ?? "")"
        let before = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { $0.first.flatMap { Int64($0) } }
        let rows = try await store.read { try $0.webhooks.list(status: status, beforeID: before, limit: limit + 1) }
        let page = rows.prefix(limit)
        return Page(
            items: Array(page), positions: page.map { [String($0.deliveryID)] }, more: rows.count > limit, tokens: pageTokens,
            scope: scope)
    }

    /// Sends a delivery again, with the same `webhook-id` and body.
    public func redeliver(_ caller: Caller, _ deliveryID: Int64) async throws -> WebhookDelivery {
        try caller.requireAdmin()
        let now = clock.nowMillis
        guard let delivery = try await store.transaction({ try $0.webhooks.redeliver(deliveryID, now: now) }) else {
            throw ParleyError.notFound("Webhook delivery \(deliveryID) not found.")
        }
        return delivery
    }
}
