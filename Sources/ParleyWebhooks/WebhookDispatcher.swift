import CurlHTTP
import Foundation
import Logging
import ParleyCore
import ParleyStore
import ServiceLifecycle

/// How deliveries are attempted (API.md §10.2).
public struct WebhookDeliverySettings: Sendable {
    /// Deliveries claimed at once by an instance.
    public var batch = 16
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

    public init() {}
}

/// Drains the delivery queue: any instance claims due deliveries, signs and posts them through
/// the outbound guard, and records the outcome (delivered, retried with backoff and jitter or
/// after `Retry-After`, or failed for good). A delivery is sent at least once; two instances
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
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let attempted = await self.deliverDue()
                if attempted < self.settings.batch { try await Task.sleep(for: self.settings.pollInterval) }
            }
        }
    }

    /// One round: claims what is due and attempts it; returns how many were attempted.
    @discardableResult
    public func deliverDue() async -> Int {
        let now = clock.nowMillis
        let (lease, batch) = (settings.lease.milliseconds, settings.batch)
        do {
            // A plain read first: most servers have webhooks off, and then take no lock and write nothing.
            guard let webhook = try await store.read({ try $0.webhooks.settings() }), webhook.enabled, !webhook.url.isEmpty else {
                return 0
            }
            let claimed = try await store.transaction { try $0.webhooks.claim(now: now, leaseUntil: now + lease, limit: batch) }
            guard !claimed.isEmpty else { return 0 }
            await withTaskGroup(of: Void.self) { group in
                for delivery in claimed { group.addTask { await self.attempt(delivery, webhook) } }
            }
            return claimed.count
        } catch {
            logger.warning("claiming webhook deliveries failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    private func attempt(_ claimed: ClaimedWebhookDelivery, _ webhook: WebhookSettings) async {
        let delivery = claimed.delivery
        var statusCode: Int?
        var failure: String?
        var retryAfter: Duration?
        var retryable = true
        var rendered: String?
        do {
            let body: String
            if let stored = claimed.body {
                body = stored
            } else {
                body = try await render(claimed, webhook)
                rendered = body
            }
            let response = try await post(body, delivery, webhook)
            statusCode = response.status
            if (200...299).contains(response.status) {
                return await record(delivery, delivered: true, statusCode: response.status, error: nil, retryAt: nil, body: rendered)
            }
            failure = "answered \(response.status)"
            retryable = [408, 429].contains(response.status) || response.status >= 500
            if response.status == 429 || response.status == 503 { retryAfter = Self.retryAfter(response.header("Retry-After")) }
        } catch let refusal as OutboundRefusal {
            // The destination is not allowed: no retry helps until the settings change (then redeliver).
            failure = "refused: \(refusal)"
            retryable = false
        } catch is CancellationError {
            // Shutting down: the delivery is due again at once, for any instance.
            return await record(delivery, delivered: false, statusCode: nil, error: "interrupted", retryAt: clock.nowMillis, body: rendered)
        } catch {
            failure = "\(error)"
        }
        let now = clock.nowMillis
        let wait = retryAfter ?? backoff(attempt: delivery.attempts)
        let retryAt = now + wait.milliseconds
        let giveUpAt = claimed.eventCreatedAt + settings.retryFor.milliseconds
        await record(
            delivery, delivered: false, statusCode: statusCode, error: failure, retryAt: retryable && retryAt <= giveUpAt ? retryAt : nil,
            body: rendered)
    }

    private func post(_ body: String, _ delivery: WebhookDelivery, _ webhook: WebhookSettings) async throws -> OutboundResponse {
        let now = clock.nowMillis
        let timestamp = now / 1000
        let destination = try await outbound.check(webhook.url)
        var request = OutboundRequest(
            .post, destination.url,
            headers: [
                ("Content-Type", "application/json"),
                ("webhook-id", delivery.webhookID),
                ("webhook-timestamp", String(timestamp)),
                (
                    "webhook-signature",
                    WebhookSigner.standardSignature(
                        id: delivery.webhookID, timestamp: timestamp, body: body, secrets: webhook.signingSecrets(now: now))
                ),
                ("x-sendbird-signature", WebhookSigner.sendbirdSignature(body: body, apiToken: apiToken))
            ],
            body: Array(body.utf8), connectTimeout: min(settings.timeout, .seconds(3)), timeout: settings.timeout,
            maxResponseBytes: settings.maxAnswerBytes, maxRedirects: 0, pins: [destination.pin])
        request.keepsTruncatedAnswer = true
        return try await client.send(request)
    }

    /// The body, rendered from the stored event at the first attempt (kept for the later ones by
    /// `record`).
    private func render(_ claimed: ClaimedWebhookDelivery, _ webhook: WebhookSettings) async throws -> String {
        let payload = try JSONDecoder().decode(EventPayload.self, from: Data(claimed.eventData.utf8))
        let (channel, members) = try await store.read { repositories -> (WebhookChannel?, [BasicUser]?) in
            guard let url = claimed.channelURL else { return (nil, nil) }
            let channel = try repositories.webhooks.channelSummary(url, kind: claimed.channelKind)
            guard webhook.includeMembers, claimed.channelKind == .group else { return (channel, nil) }
            return (channel, try repositories.users.basicUsers(try repositories.events.joinedMembers(url)))
        }
        return try WebhookPayload.render(claimed, payload: payload, channel: channel, members: members, appID: appID)
    }

    private func record(
        _ delivery: WebhookDelivery, delivered: Bool, statusCode: Int?, error: String?, retryAt: Int64?, body: String?
    ) async {
        let now = clock.nowMillis
        do {
            try await store.transaction { repositories in
                try repositories.webhooks.recordAttempt(
                    delivery.deliveryID, delivered: delivered, statusCode: statusCode, error: error.map { String($0.prefix(500)) },
                    retryAt: retryAt, body: body, now: now)
            }
        } catch {
            // The lease runs out and the delivery is attempted again: at least once, as promised.
            logger.warning("recording a webhook attempt failed", metadata: ["error": "\(error)"])
        }
    }

    /// A doubling backoff from `firstBackoff` with full jitter (half to all of it).
    private func backoff(attempt: Int) -> Duration {
        let ceiling = min(settings.firstBackoff * (1 << min(max(attempt - 1, 0), 20)), settings.maxBackoff)
        return ceiling * Double.random(in: 0.5...1)
    }

    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 24 * 3600))
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
