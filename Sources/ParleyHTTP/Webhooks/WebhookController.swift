import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyWebhooks

/// Webhook settings and deliveries (API.md §10), for the admin: `/v3/applications/settings/webhook`.
struct WebhookController {
    let webhooks: WebhookService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = "applications/settings/webhook"
        routes.get(RouterPath(base), use: settings)
        routes.put(RouterPath(base), use: update)
        routes.post(RouterPath(base + "/rotate_secret"), use: rotateSecret)
        routes.get(RouterPath(base + "/deliveries"), use: deliveries)
        routes.post(RouterPath(base + "/deliveries/{delivery_id}/redeliver"), use: redeliver)
        return routes
    }

    @Sendable func settings(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(WebhookSettingsDTO(settings: try await webhooks.settings(context.caller)))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: WebhookSettingsBody.self, context: context)
        let update = WebhookSettingsUpdate(
            enabled: body.enabled, url: try body.url.map { try Validation.text($0, field: "url", max: 2048) },
            enabledEvents: try body.enabledEvents.map { events in
                guard events.count <= 64 else { throw ParleyError.invalidValue("enabled_events", "at most 64 categories") }
                return events
            }, includeMembers: body.includeMembers)
        return JSONResponse.make(WebhookSettingsDTO(settings: try await webhooks.update(context.caller, update)))
    }

    @Sendable func rotateSecret(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(WebhookSettingsDTO(settings: try await webhooks.rotateSecret(context.caller)))
    }

    @Sendable func deliveries(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let status = try query.string("status").map { value in
            guard let status = WebhookDeliveryStatus(rawValue: value) else {
                throw ParleyError.invalidValue("status", "one of pending, delivered, failed")
            }
            return status
        }
        let page = try await webhooks.deliveries(context.caller, status: status, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "deliveries", page: page, WebhookDeliveryDTO.init))
    }

    @Sendable func redeliver(_ request: Request, _ context: CallerContext) async throws -> Response {
        let delivery = try await webhooks.redeliver(context.caller, try context.numberParameter("delivery_id"))
        return JSONResponse.make(WebhookDeliveryDTO(delivery: delivery))
    }
}

/// `PUT /v3/applications/settings/webhook`.
struct WebhookSettingsBody: Decodable {
    @Checked var enabled: Bool?
    @Checked var url: String?
    @Checked var enabledEvents: [String]?
    @Checked var includeMembers: Bool?

    enum CodingKeys: String, CodingKey {
        case enabled, url
        case enabledEvents = "enabled_events"
        case includeMembers = "include_members"
    }
}

/// `{ "webhook": { enabled, url, enabled_events, include_members, secret } }`, as Sendbird wraps it.
struct WebhookSettingsDTO: JSONWritable {
    let settings: WebhookSettings

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("webhook")
            json.object { json in
                json.field("enabled", settings.enabled)
                json.field("url", settings.url)
                json.key("enabled_events")
                json.array { json in settings.enabledEvents.forEach { json.string($0) } }
                json.field("include_members", settings.includeMembers)
                json.field("secret", settings.secret)
                json.key("previous_secret_expires_at")
                if let until = settings.previousSecretUntil, settings.previousSecret != nil { json.int(until) } else { json.null() }
            }
        }
    }
}

struct WebhookDeliveryDTO: JSONWritable {
    let delivery: WebhookDelivery

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("delivery_id", delivery.deliveryID)
            json.field("webhook_id", delivery.webhookID)
            json.field("event_id", delivery.eventID)
            json.field("category", delivery.category)
            json.field("status", delivery.status.rawValue)
            json.field("attempts", delivery.attempts)
            json.field("next_attempt_at", delivery.nextAttemptAt)
            json.key("last_status_code")
            if let code = delivery.lastStatusCode { json.int(Int64(code)) } else { json.null() }
            json.key("last_error")
            if let error = delivery.lastError { json.string(error) } else { json.null() }
            json.field("created_at", delivery.createdAt)
            json.key("delivered_at")
            if let at = delivery.deliveredAt { json.int(at) } else { json.null() }
            // Present on a bot's deliveries only (API.md §14.8).
            if let bot = delivery.botUserID { json.field("bot_userid", bot) }
        }
    }
}
