/// The webhook settings (API.md §10.1).
public struct WebhookSettings: Sendable, Equatable {
    public var enabled: Bool
    public var url: String
    /// Categories of `WebhookCategory.all`, or `*` for every one.
    public var enabledEvents: [String]
    public var includeMembers: Bool
    /// `whsec_` and the base64 of the signing key (Standard Webhooks).
    public var secret: String
    /// The secret before the last rotation, which signs too until `previousSecretUntil`.
    public var previousSecret: String?
    public var previousSecretUntil: Int64?

    public init(
        enabled: Bool, url: String, enabledEvents: [String], includeMembers: Bool, secret: String, previousSecret: String? = nil,
        previousSecretUntil: Int64? = nil
    ) {
        self.enabled = enabled
        self.url = url
        self.enabledEvents = enabledEvents
        self.includeMembers = includeMembers
        self.secret = secret
        self.previousSecret = previousSecret
        self.previousSecretUntil = previousSecretUntil
    }

    /// The secrets that sign a delivery at `now`.
    public func signingSecrets(now: Int64) -> [String] {
        guard let previousSecret, let until = previousSecretUntil, until > now else { return [secret] }
        return [secret, previousSecret]
    }
}

public enum WebhookDeliveryStatus: String, Sendable, Codable, CaseIterable {
    case pending, delivered, failed
}

/// One event's delivery to the webhook, or to a bot (API.md §10.2, §14.8), as the delivery log
/// shows it.
public struct WebhookDelivery: Sendable, Equatable {
    public var deliveryID: Int64
    /// The `webhook-id` header, the same on every attempt.
    public var webhookID: String
    public var eventID: Int64
    public var category: String
    public var status: WebhookDeliveryStatus
    public var attempts: Int
    public var nextAttemptAt: Int64
    public var lastStatusCode: Int?
    public var lastError: String?
    public var createdAt: Int64
    public var deliveredAt: Int64?
    /// The bot it goes to; nil for the application's webhook.
    public var botUserID: String?

    public init(
        deliveryID: Int64, webhookID: String, eventID: Int64, category: String, status: WebhookDeliveryStatus, attempts: Int,
        nextAttemptAt: Int64, lastStatusCode: Int?, lastError: String?, createdAt: Int64, deliveredAt: Int64?, botUserID: String? = nil
    ) {
        self.botUserID = botUserID
        self.deliveryID = deliveryID
        self.webhookID = webhookID
        self.eventID = eventID
        self.category = category
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
    }
}

/// A delivery an instance has claimed for one attempt: what it needs to render and send it.
public struct ClaimedWebhookDelivery: Sendable {
    public let delivery: WebhookDelivery
    public let eventType: EventType
    public let channelURL: String?
    public let channelKind: ChannelKind
    /// The event's payload as stored (JSON of `EventPayload`).
    public let eventData: String
    public let eventCreatedAt: Int64
    /// Rendered by an earlier attempt; nil at the first.
    public let body: String?
    /// The traced request that queued it (W3C `traceparent`), whose trace its delivery continues.
    public var traceParent: String? = nil

    public init(
        delivery: WebhookDelivery, eventType: EventType, channelURL: String?, channelKind: ChannelKind, eventData: String,
        eventCreatedAt: Int64, body: String?
    ) {
        self.delivery = delivery
        self.eventType = eventType
        self.channelURL = channelURL
        self.channelKind = channelKind
        self.eventData = eventData
        self.eventCreatedAt = eventCreatedAt
        self.body = body
    }
}

/// A channel as webhook payloads show it (Sendbird's `channel` object).
public struct WebhookChannel: Sendable, Equatable {
    public let channelURL: String
    public let kind: ChannelKind
    public let name: String
    public let customType: String
    public let data: String
    public let isDistinct: Bool
    public let isPublic: Bool
    public let isSuper: Bool
    public let isEphemeral: Bool
    public let createdAt: Int64

    public init(
        channelURL: String, kind: ChannelKind, name: String, customType: String, data: String, isDistinct: Bool, isPublic: Bool,
        isSuper: Bool, isEphemeral: Bool, createdAt: Int64
    ) {
        self.channelURL = channelURL
        self.kind = kind
        self.name = name
        self.customType = customType
        self.data = data
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.createdAt = createdAt
    }
}

/// The outcome of one delivery attempt, as recorded: delivered, due again at `retryAt`, or (nil)
/// failed for good; `body` is the one the first attempt rendered.
public struct WebhookAttempt: Sendable {
    public let deliveryID: Int64
    public let delivered: Bool
    public let statusCode: Int?
    public let error: String?
    public let retryAt: Int64?
    public let body: String?

    public init(deliveryID: Int64, delivered: Bool, statusCode: Int?, error: String?, retryAt: Int64?, body: String?) {
        self.deliveryID = deliveryID
        self.delivered = delivered
        self.statusCode = statusCode
        self.error = error
        self.retryAt = retryAt
        self.body = body
    }
}
