import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions

/// Auto event messages (API.md §14.7): Sendbird's `GET|PUT /v3/applications/settings/auto_event_message`, the admin's.
struct AutoEventMessageController {
    let service: AutoEventMessageService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("applications/settings/auto_event_message", use: view)
        routes.put("applications/settings/auto_event_message", use: update)
        return routes
    }

    @Sendable func view(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(AutoEventMessagesDTO(autoEventMessage: try await service.settings(context.caller)))
    }

    /// `{ auto_event_message: { user_join: { is_enabled, message }, … } }`; absent fields stay.
    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: AutoEventMessagesBody.self, context: context)
        guard let given = body.autoEventMessage else { throw ParleyError.missing("auto_event_message") }
        let parts: [(AutoEventMessages.Kind, String, AutoEventMessagesBody.Part?)] = [
            (.userJoin, "user_join", given.userJoin), (.userLeave, "user_leave", given.userLeave),
            (.channelCreate, "channel_create", given.channelCreate), (.channelChange, "channel_change", given.channelChange)
        ]
        var checked: [(AutoEventMessages.Kind, Bool?, String?)] = []
        for (kind, name, part) in parts {
            guard let part else { continue }
            let message = try part.message.map { text -> String in
                guard !text.isEmpty else { throw ParleyError.invalidValue("auto_event_message.\(name).message", "must not be empty") }
                return try Validation.text(text, field: "auto_event_message.\(name).message", max: 1_000)
            }
            checked.append((kind, part.isEnabled, message))
        }
        let changes = checked
        let settings = try await service.update(context.caller) { settings in
            for (kind, isEnabled, message) in changes {
                if let isEnabled { settings[kind].isEnabled = isEnabled }
                if let message { settings[kind].message = message }
            }
        }
        return try JSONResponse.make(AutoEventMessagesDTO(autoEventMessage: settings))
    }
}

struct AutoEventMessagesBody: Decodable {
    var autoEventMessage: Parts?

    struct Parts: Decodable {
        var userJoin: Part?
        var userLeave: Part?
        var channelCreate: Part?
        var channelChange: Part?

        enum CodingKeys: String, CodingKey {
            case userJoin = "user_join"
            case userLeave = "user_leave"
            case channelCreate = "channel_create"
            case channelChange = "channel_change"
        }
    }

    struct Part: Decodable {
        @Checked var isEnabled: Bool?
        @Checked var message: String?

        enum CodingKeys: String, CodingKey {
            case message
            case isEnabled = "is_enabled"
        }
    }

    enum CodingKeys: String, CodingKey {
        case autoEventMessage = "auto_event_message"
    }
}

struct AutoEventMessagesDTO: Encodable {
    let autoEventMessage: AutoEventMessages

    enum CodingKeys: String, CodingKey {
        case autoEventMessage = "auto_event_message"
    }
}
