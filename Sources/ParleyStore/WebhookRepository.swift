import ParleyCore
import Postgres

/// SQL for `webhook_settings` and `webhook_deliveries` (API.md §10); deliveries are queued by
/// `EventRepository.flush`.
public struct WebhookRepository {
    let connection: PostgresConnection

    private static let settingsColumns =
        "enabled, url, enabled_events, include_members, secret, previous_secret, previous_secret_until"

    public func settings() throws -> WebhookSettings? {
        try connection.query("SELECT \(Self.settingsColumns) FROM webhook_settings").first.map { row in
            WebhookSettings(
                enabled: try row.decode("enabled"), url: try row.decode("url"), enabledEvents: try row.decode("enabled_events"),
                includeMembers: try row.decode("include_members"), secret: try row.decode("secret"),
                previousSecret: try row.decodeIfPresent("previous_secret"),
                previousSecretUntil: try row.decodeIfPresent("previous_secret_until"))
        }
    }

    /// The settings row, made (disabled, with `secret`) when there is none yet.
    public func ensureSettings(secret: String, now: Int64) throws -> WebhookSettings {
        try connection.query(
            "INSERT INTO webhook_settings (secret, updated_at) VALUES ($1, $2) ON CONFLICT (only_row) DO NOTHING", [secret, now])
        guard let settings = try settings() else { throw ParleyError.internalError }
        return settings
    }

    public func update(_ settings: WebhookSettings, now: Int64) throws {
        try connection.query(
            """
            UPDATE webhook_settings SET enabled = $1, url = $2, enabled_events = $3, include_members = $4, secret = $5,
                previous_secret = $6, previous_secret_until = $7, updated_at = $8
            """,
            [
                settings.enabled, settings.url, settings.enabledEvents, settings.includeMembers, settings.secret, settings.previousSecret,
                settings.previousSecretUntil, now
            ]
        )
    }

    private static let deliveryColumns = """
        delivery_id, webhook_id, event_id, category, status, attempts, next_attempt_at, last_status_code, last_error, created_at,
        delivered_at, bot_user_id
        """

    private static func delivery(_ row: PostgresRow) throws -> WebhookDelivery {
        WebhookDelivery(
            deliveryID: try row.decode("delivery_id"), webhookID: try row.decode("webhook_id"), eventID: try row.decode("event_id"),
            category: try row.decode("category"),
            status: WebhookDeliveryStatus(rawValue: try row.decode("status")) ?? .pending,
            attempts: Int(try row.decode("attempts") as Int64),
            nextAttemptAt: try row.decode("next_attempt_at"),
            lastStatusCode: try row.decodeIfPresent("last_status_code", as: Int64.self).map(Int.init),
            lastError: try row.decodeIfPresent("last_error"), createdAt: try row.decode("created_at"),
            deliveredAt: try row.decodeIfPresent("delivered_at"), botUserID: try row.decodeIfPresent("bot_user_id"))
    }

    /// Claims up to `limit` due deliveries for one attempt each, until `leaseUntil`: no other
    /// instance takes them meanwhile; one whose lease ran out (its instance died) is due again.
    /// The application webhook's wait while it is off (`webhookOn` false); bots' go on.
    public func claim(now: Int64, leaseUntil: Int64, limit: Int, webhookOn: Bool) throws -> [ClaimedWebhookDelivery] {
        let rows = try connection.query(
            """
            UPDATE webhook_deliveries d SET claimed_until = $2, attempts = d.attempts + 1
            WHERE d.delivery_id IN (
                SELECT delivery_id FROM webhook_deliveries
                WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
                    AND ($4 OR bot_user_id IS NOT NULL)
                ORDER BY next_attempt_at, delivery_id LIMIT $3 FOR UPDATE SKIP LOCKED
            )
            RETURNING \(Self.deliveryColumns), event_type, channel_url, channel_type, event_data, event_created_at, body, traceparent
            """,
            [now, leaseUntil, Int64(limit), webhookOn]
        )
        return try rows.compactMap { row in
            guard let type = EventType(rawValue: try row.decode("event_type")) else { return nil }
            var claimed = ClaimedWebhookDelivery(
                delivery: try Self.delivery(row), eventType: type, channelURL: try row.decodeIfPresent("channel_url"),
                channelKind: ChannelKind(rawValue: try row.decode("channel_type")) ?? .group, eventData: try row.decode("event_data"),
                eventCreatedAt: try row.decode("event_created_at"), body: try row.decodeIfPresent("body"))
            claimed.traceParent = try row.decodeIfPresent("traceparent")
            return claimed
        }
    }

    /// The outcomes of a round of attempts, in one statement; a delivery redelivered meanwhile
    /// (its claim dropped) stays due.
    public func record(_ attempts: [WebhookAttempt], now: Int64) throws {
        guard !attempts.isEmpty else { return }
        try connection.query(
            """
            UPDATE webhook_deliveries d SET claimed_until = NULL, last_status_code = a.status_code, last_error = a.error,
                status = CASE WHEN a.delivered THEN 'delivered' WHEN a.retry_at IS NULL THEN 'failed' ELSE 'pending' END,
                delivered_at = CASE WHEN a.delivered THEN $7 ELSE d.delivered_at END,
                next_attempt_at = COALESCE(a.retry_at, d.next_attempt_at), body = COALESCE(d.body, a.body)
            FROM unnest($1::bigint[], $2::boolean[], $3::bigint[], $4::text[], $5::bigint[], $6::text[])
                AS a(delivery_id, delivered, status_code, error, retry_at, body)
            WHERE d.delivery_id = a.delivery_id AND d.claimed_until IS NOT NULL
            """,
            [
                attempts.map(\.deliveryID), attempts.map(\.delivered), attempts.map { $0.statusCode.map(Int64.init) },
                attempts.map(\.error), attempts.map(\.retryAt), attempts.map(\.body), now
            ]
        )
    }

    /// The delivery log, newest first, after the keyset position `beforeID`.
    public func list(status: WebhookDeliveryStatus?, beforeID: Int64?, limit: Int) throws -> [WebhookDelivery] {
        try connection.query(
            """
            SELECT \(Self.deliveryColumns) FROM webhook_deliveries
            WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR delivery_id < $2)
            ORDER BY delivery_id DESC LIMIT $3
            """,
            [status?.rawValue, beforeID, Int64(limit)]
        ).map(Self.delivery)
    }

    /// Sends a delivery again (same `webhook-id`, same body) as soon as an instance is free;
    /// nil when there is no such delivery.
    public func redeliver(_ deliveryID: Int64, now: Int64) throws -> WebhookDelivery? {
        try connection.query(
            """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $2, claimed_until = NULL
            WHERE delivery_id = $1 RETURNING \(Self.deliveryColumns)
            """,
            [deliveryID, now]
        ).first.map(Self.delivery)
    }

    /// The channel as Sendbird's webhook payloads describe it; nil once it is gone.
    public func channelSummary(_ channelURL: String, kind: ChannelKind) throws -> WebhookChannel? {
        let sql =
            kind == .group
            ? """
            SELECT channel_url, name, custom_type, data, is_distinct, is_public, is_super, is_ephemeral, created_at
            FROM group_channels WHERE channel_url = $1
            """
            : """
            SELECT channel_url, name, custom_type, data, false AS is_distinct, true AS is_public, false AS is_super, is_ephemeral,
                created_at
            FROM open_channels WHERE channel_url = $1
            """
        return try connection.query(sql, [channelURL]).first.map { row in
            WebhookChannel(
                channelURL: try row.decode("channel_url"), kind: kind, name: try row.decode("name"),
                customType: try row.decode("custom_type"),
                data: try row.decode("data"), isDistinct: try row.decode("is_distinct"), isPublic: try row.decode("is_public"),
                isSuper: try row.decode("is_super"), isEphemeral: try row.decode("is_ephemeral"), createdAt: try row.decode("created_at"))
        }
    }

    /// Deliveries waiting (for metrics and tests).
    public func pendingCount() throws -> Int {
        Int(try connection.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'")[0].decode("n") as Int64)
    }
}
