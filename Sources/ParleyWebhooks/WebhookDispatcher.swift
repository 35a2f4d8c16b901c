import CurlHTTP
import Foundation
import Logging
import OutboundPolicy
import ParleyCore
import ParleyStore
import ServiceLifecycle
import Traced

/// How deliveries are attempted (API.md §10.2).
public struct WebhookDeliverySettings: Sendable {
    /// Deliveries claimed at once by an instance.
    public var batch = 64
    /// How long a claim keeps other instances off a delivery; past it (the instance died), the
    /// delivery is due again.
    public var lease: Duration = .seconds(30)
    public var timeout: Duration = .seconds(5)
    /// Of the receiver's answer, at most this is read.
    public var maxAnswerBytes = 64 * 1024
    /// How often an idle instance looks for due deliveries.
    public var pollInterval: Duration = .milliseconds(250)
    /// Retries go on this long after the event, then the delivery is kept as failed.
    public var retryFor: Duration = .seconds(24 * 3600)
    public var firstBackoff: Duration = .seconds(1)
    public var maxBackoff: Duration = .seconds(3600)
    /// `PARLEY_WEBHOOK_MAX_RETRY_AFTER_SECONDS`: a receiver's `Retry-After` counts for at most this.
    public var maxRetryAfter: Duration = .seconds(3600)

    var backoff: RetryBackoff { RetryBackoff(first: firstBackoff, max: maxBackoff, maxRetryAfter: maxRetryAfter) }

    public init() {}
}

/// Drains the delivery queue: any instance claims due deliveries, signs and posts them through
/// the outbound guard, and records the outcome (delivered, retried with backoff and jitter,
/// lengthened by `Retry-After`, or failed for good). A delivery is sent at least once; two instances
/// never attempt the same one at the same time.
public final class WebhookDispatcher: Service, Sendable {
    let store: Store
    let client: CurlClient
    let outbound: OutboundGuard
    let clock: Clock
    let settings: WebhookDeliverySettings
    let apiToken: String
    let appID: String
    let logger: Logger

    public init(
        store: Store, client: CurlClient, outbound: OutboundGuard, clock: Clock, settings: WebhookDeliverySettings, apiToken: String,
        appID: String, logger: Logger
    ) {
        self.store = store
        self.client = client
        self.outbound = outbound
        self.clock = clock
        self.settings = settings
        self.apiToken = apiToken
        self.appID = appID
        self.logger = logger
    }

    public func run() async throws {
        WebhookMetrics.prepare()
        try? await cancelWhenGracefulShutdown {
            var depthCountedAt = ContinuousClock.now - WebhookMetrics.depthInterval
            while !Task.isCancelled {
                if ContinuousClock.now - depthCountedAt >= WebhookMetrics.depthInterval {
                    depthCountedAt = .now
                    await self.countPending()
                }
                let attempted = await self.deliverDue()
                if attempted < self.settings.batch { try await Task.sleep(for: self.settings.pollInterval) }
            }
        }
    }

    /// One round: claims what is due and attempts it; returns how many were attempted. The
    /// round costs the database a claim, one read for the recipients and the bodies to render
    /// and one write for all outcomes, however many deliveries it holds.
    @discardableResult
    public func deliverDue() async -> Int {
        let now = clock.nowMillis
        let (lease, batch) = (settings.lease.milliseconds, settings.batch)
        do {
            // A plain read first: most servers have neither a webhook nor bots, and then take no
            // lock and write nothing.
            let (webhook, hasBots) = try await store.read { repositories in
                (try repositories.webhooks.settings(), try repositories.bots.any())
            }
            let activeWebhook = webhook.flatMap { $0.enabled && !$0.url.isEmpty ? $0 : nil }
            guard activeWebhook != nil || hasBots else { return 0 }
            let claimed = try await store.transaction {
                try $0.webhooks.claim(now: now, leaseUntil: now + lease, limit: batch, webhookOn: activeWebhook != nil)
            }
            guard !claimed.isEmpty else { return 0 }
            let recipients = try await recipients(of: claimed, webhook: activeWebhook, now: now)
            let bodies = try await render(claimed.filter { $0.body == nil }, recipients)
            let outcomes = await withTaskGroup(of: WebhookAttempt.self) { group in
                for delivery in claimed {
                    let rendered = bodies[delivery.delivery.deliveryID]
                    let recipient = recipients[delivery.delivery.botUserID ?? Recipient.webhookKey]
                    group.addTask { await self.attempt(delivery, body: delivery.body ?? rendered, rendered: rendered, recipient) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            try await store.transaction { try $0.webhooks.record(outcomes, now: now) }
            WebhookMetrics.count(outcomes)
            return claimed.count
        } catch {
            // Whatever was claimed and not recorded is due again when its lease runs out: at
            // least once, as promised.
            logger.warning("delivering webhooks failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// Sets the queue-depth gauge; with webhooks off it is 0 and costs no count.
    private func countPending() async {
        let pending = try? await store.read { repositories -> Int in
            guard let webhook = try repositories.webhooks.settings(), webhook.enabled else { return 0 }
            return try repositories.webhooks.pendingCount()
        }
        if let pending { WebhookMetrics.pending.record(pending) }
    }

    private func attempt(_ claimed: ClaimedWebhookDelivery, body: String?, rendered: String?, _ recipient: Recipient?) async
        -> WebhookAttempt
    {
        guard let recipient else {
            // The bot was deleted meanwhile (its deliveries go with it), or the webhook turned off.
            return failed(claimed, statusCode: nil, error: "no recipient", retryable: false, retryAfter: nil, rendered: nil)
        }
        guard let destination = recipient.destination else {
            // The destination is not allowed: no retry helps until the settings change (then redeliver).
            return failed(
                claimed, statusCode: nil, error: "refused: \(recipient.refusal ?? "")", retryable: false, retryAfter: nil, rendered: nil)
        }
        guard let body else { return failed(claimed, statusCode: nil, error: "no body", retryable: false, retryAfter: nil, rendered: nil) }
        do {
            // A span of the trace of the request that queued it, when that one was traced.
            let response = try await Traced.root(
                "webhook.deliver", parent: TraceParent.context(claimed.traceParent), ofKind: .producer
            ) { span in
                span?.attributes["parley.webhook_id"] = claimed.delivery.webhookID
                return try await post(body, claimed.delivery, destination, secrets: recipient.secrets)
            }
            if (200...299).contains(response.status) {
                return WebhookAttempt(
                    deliveryID: claimed.delivery.deliveryID, delivered: true, statusCode: response.status, error: nil, retryAt: nil,
                    body: rendered)
            }
            let retryable = [408, 429].contains(response.status) || response.status >= 500
            let retryAfter = [429, 503].contains(response.status) ? response.retryAfter : nil
            return failed(
                claimed, statusCode: response.status, error: "answered \(response.status)", retryable: retryable, retryAfter: retryAfter,
                rendered: rendered)
        } catch is CancellationError {
            // Shutting down: the delivery is due again at once, for any instance.
            return WebhookAttempt(
                deliveryID: claimed.delivery.deliveryID, delivered: false, statusCode: nil, error: "interrupted", retryAt: clock.nowMillis,
                body: rendered)
        } catch {
            return failed(claimed, statusCode: nil, error: "\(error)", retryable: true, retryAfter: nil, rendered: rendered)
        }
    }

    /// A failed attempt: due again after the backoff (or a longer `Retry-After`), or failed for
    /// good when not retryable or past `retryFor`.
    private func failed(
        _ claimed: ClaimedWebhookDelivery, statusCode: Int?, error: String, retryable: Bool, retryAfter: Duration?, rendered: String?
    ) -> WebhookAttempt {
        let retryAt =
            clock.nowMillis + settings.backoff.delay(afterAttempts: claimed.delivery.attempts, retryAfter: retryAfter).milliseconds
        let giveUpAt = claimed.eventCreatedAt + settings.retryFor.milliseconds
        return WebhookAttempt(
            deliveryID: claimed.delivery.deliveryID, delivered: false, statusCode: statusCode, error: String(error.prefix(500)),
            retryAt: retryable && retryAt <= giveUpAt ? retryAt : nil, body: rendered)
    }

    private func post(_ body: String, _ delivery: WebhookDelivery, _ destination: OutboundGuard.Destination, secrets: [String])
        async throws -> OutboundResponse
    {
        let now = clock.nowMillis
        let timestamp = now / 1000
        var request = OutboundRequest(
            .post, destination.url,
            headers: [
                ("Content-Type", "application/json"),
                ("webhook-id", delivery.webhookID),
                ("webhook-timestamp", String(timestamp)),
                (
                    "webhook-signature",
                    WebhookSigner.standardSignature(
                        id: delivery.webhookID, timestamp: timestamp, body: body, secrets: secrets)
                ),
                ("x-sendbird-signature", WebhookSigner.sendbirdSignature(body: body, apiToken: apiToken))
            ],
            body: Array(body.utf8), connectTimeout: min(settings.timeout, .seconds(3)), timeout: settings.timeout,
            maxResponseBytes: settings.maxAnswerBytes, maxRedirects: 0, pins: [OutboundRequest.Pin(destination)])
        request.keepsTruncatedAnswer = true
        return try await client.send(request)
    }

    /// The bodies of first attempts, rendered from their stored events with one read of their
    /// channels (and members); kept for the later attempts by `record`.
    private func render(_ deliveries: [ClaimedWebhookDelivery], _ recipients: [String: Recipient]) async throws -> [Int64: String] {
        guard !deliveries.isEmpty else { return [:] }
        func recipient(_ delivery: ClaimedWebhookDelivery) -> Recipient? { recipients[delivery.delivery.botUserID ?? Recipient.webhookKey] }
        let channels = Set(
            deliveries.compactMap { delivery in delivery.channelURL.map { ChannelKey(url: $0, kind: delivery.channelKind) } })
        let withMembers = Set(
            deliveries.filter { $0.channelKind == .group && recipient($0)?.includeMembers == true }.compactMap(\.channelURL))
        let (summaries, members) = try await store.read { repositories in
            var summaries: [ChannelKey: WebhookChannel] = [:]
            var members: [String: [BasicUser]] = [:]
            for channel in channels {
                summaries[channel] = try repositories.webhooks.channelSummary(channel.url, kind: channel.kind)
            }
            for url in withMembers {
                members[url] = try repositories.users.basicUsers(try repositories.events.joinedMembers(url))
            }
            return (summaries, members)
        }
        var bodies: [Int64: String] = [:]
        let decoder = JSONDecoder()
        for delivery in deliveries {
            let payload = try decoder.decode(EventPayload.self, from: Data(delivery.eventData.utf8))
            let key = delivery.channelURL.map { ChannelKey(url: $0, kind: delivery.channelKind) }
            let recipient = recipient(delivery)
            bodies[delivery.delivery.deliveryID] = WebhookPayload.render(
                delivery, payload: payload, channel: key.flatMap { summaries[$0] },
                members: recipient?.includeMembers == true ? delivery.channelURL.flatMap { members[$0] } : nil, bot: recipient?.bot,
                appID: appID)
        }
        return bodies
    }

    private struct ChannelKey: Hashable {
        let url: String
        let kind: ChannelKind
    }
}
