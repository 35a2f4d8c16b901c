import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyPush

/// Push preferences (API.md §12.2): `/v3/users/{user_id}/push_preference[/{channel_url}]` and the
/// template choice, `/v3/users/{user_id}/push/template`.
struct PushPreferenceController {
    let preferences: PushPreferenceService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("users/{user_id}/push_preference", use: get)
        routes.put("users/{user_id}/push_preference", use: update)
        routes.delete("users/{user_id}/push_preference", use: reset)
        routes.get("users/{user_id}/push_preference/{channel_url}", use: getChannel)
        routes.put("users/{user_id}/push_preference/{channel_url}", use: updateChannel)
        routes.get("users/{user_id}/push/template", use: getTemplate)
        routes.put("users/{user_id}/push/template", use: chooseTemplate)
        return routes
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(
            PushPreferenceDTO(preference: try await preferences.preference(context.caller, try context.pathParameter("user_id"))))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: PushPreferenceBody.self, context: context)
        let updated = try await preferences.update(context.caller, try context.pathParameter("user_id"), try body.update())
        return JSONResponse.make(PushPreferenceDTO(preference: updated))
    }

    @Sendable func reset(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(PushPreferenceDTO(preference: try await preferences.reset(context.caller, try context.pathParameter("user_id"))))
    }

    @Sendable func getChannel(_ request: Request, _ context: CallerContext) async throws -> Response {
        let preference = try await preferences.channelPreference(
            context.caller, try context.pathParameter("user_id"), try context.pathParameter("channel_url"))
        return JSONResponse.make(ChannelPushPreferenceDTO(option: preference.option, sound: preference.sound))
    }

    @Sendable func updateChannel(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: ChannelPushPreferenceBody.self, context: context)
        let option = try body.pushTriggerOption.map { value in
            guard let option = ChannelPushTriggerOption(rawValue: value) else {
                throw ParleyError.invalidValue("push_trigger_option", "must be default, all, mention_only or off")
            }
            return option
        }
        // `enable` is Sendbird's older switch: false turns the channel's pushes off, true back to the user's option.
        let chosen = option ?? body.enable.map { $0 ? ChannelPushTriggerOption.default : .off }
        guard chosen != nil || body.pushSound != nil else { throw ParleyError.missing("push_trigger_option") }
        let preference = try await preferences.setChannelPreference(
            context.caller, try context.pathParameter("user_id"), try context.pathParameter("channel_url"), option: chosen,
            sound: body.pushSound)
        return JSONResponse.make(ChannelPushPreferenceDTO(option: preference.option, sound: preference.sound))
    }

    @Sendable func getTemplate(_ request: Request, _ context: CallerContext) async throws -> Response {
        let preference = try await preferences.preference(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.make(TemplateChoiceDTO(name: preference.template))
    }

    @Sendable func chooseTemplate(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: TemplateChoiceBody.self, context: context)
        guard let name = PushTemplateName(rawValue: body.name) else {
            throw ParleyError.invalidValue("name", "must be default or alternative")
        }
        let chosen = try await preferences.chooseTemplate(context.caller, try context.pathParameter("user_id"), name)
        return JSONResponse.make(TemplateChoiceDTO(name: chosen))
    }
}

/// `PUT /v3/users/{user_id}/push_preference`: the fields to change.
struct PushPreferenceBody: Decodable {
    @Checked var pushTriggerOption: String?
    @Checked var doNotDisturb: Bool?
    @Checked var startHour: Int64?
    @Checked var startMin: Int64?
    @Checked var endHour: Int64?
    @Checked var endMin: Int64?
    @Checked var timezone: String?
    @Checked var snoozeEnabled: Bool?
    @Checked var snoozeStartTs: Int64?
    @Checked var snoozeEndTs: Int64?
    @Checked var pushSound: String?
    @Checked var alternativePushSound: String?
    @Checked var enablePushForReplies: Bool?

    enum CodingKeys: String, CodingKey {
        case pushTriggerOption = "push_trigger_option"
        case doNotDisturb = "do_not_disturb"
        case startHour = "start_hour"
        case startMin = "start_min"
        case endHour = "end_hour"
        case endMin = "end_min"
        case timezone
        case snoozeEnabled = "snooze_enabled"
        case snoozeStartTs = "snooze_start_ts"
        case snoozeEndTs = "snooze_end_ts"
        case pushSound = "push_sound"
        case alternativePushSound = "alternative_push_sound"
        case enablePushForReplies = "enable_push_for_replies"
    }

    func update() throws -> PushPreferenceUpdate {
        var update = PushPreferenceUpdate()
        if let pushTriggerOption {
            guard let option = PushTriggerOption(rawValue: pushTriggerOption) else {
                throw ParleyError.invalidValue("push_trigger_option", "must be all, mention_only or off")
            }
            update.triggerOption = option
        }
        update.doNotDisturb = doNotDisturb
        // Out-of-range values are refused by `applied(to:)`; clamping to Int first keeps huge ones refused too.
        update.startHour = startHour.map { Int(clamping: $0) }
        update.startMinute = startMin.map { Int(clamping: $0) }
        update.endHour = endHour.map { Int(clamping: $0) }
        update.endMinute = endMin.map { Int(clamping: $0) }
        update.timeZone = timezone
        update.snoozeEnabled = snoozeEnabled
        update.snoozeStart = snoozeStartTs
        update.snoozeEnd = snoozeEndTs
        update.sound = pushSound
        update.alternativeSound = alternativePushSound
        update.pushForReplies = enablePushForReplies
        return update
    }
}

/// `PUT /v3/users/{user_id}/push_preference/{channel_url}`.
struct ChannelPushPreferenceBody: Decodable {
    @Checked var pushTriggerOption: String?
    @Checked var enable: Bool?
    @Checked var pushSound: String?

    enum CodingKeys: String, CodingKey {
        case pushTriggerOption = "push_trigger_option"
        case enable
        case pushSound = "push_sound"
    }
}

/// `PUT /v3/users/{user_id}/push/template`.
struct TemplateChoiceBody: Decodable {
    @Checked var name: String
}

/// A user's push preferences in Sendbird's shape.
struct PushPreferenceDTO: JSONWritable {
    let preference: PushPreference

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("push_trigger_option", preference.triggerOption.rawValue)
            json.field("do_not_disturb", preference.doNotDisturb)
            json.field("start_hour", Int64(preference.startHour))
            json.field("start_min", Int64(preference.startMinute))
            json.field("end_hour", Int64(preference.endHour))
            json.field("end_min", Int64(preference.endMinute))
            json.field("timezone", preference.timeZone)
            json.field("snooze_enabled", preference.snoozeEnabled)
            json.field("snooze_start_ts", preference.snoozeStart)
            json.field("snooze_end_ts", preference.snoozeEnd)
            json.field("push_sound", preference.sound)
            json.field("alternative_push_sound", preference.alternativeSound)
            json.field("enable_push_for_replies", preference.pushForReplies)
            json.field("push_template", preference.template.rawValue)
        }
    }
}

/// `{ push_trigger_option, push_sound, enable }` of one channel.
struct ChannelPushPreferenceDTO: JSONWritable {
    let option: ChannelPushTriggerOption
    let sound: String

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("push_trigger_option", option.rawValue)
            json.field("push_sound", sound)
            json.field("enable", option != .off)
        }
    }
}

/// `{ name }` of the chosen template.
struct TemplateChoiceDTO: JSONWritable {
    let name: PushTemplateName

    func write(to json: inout JSONWriter) {
        json.object { json in json.field("name", name.rawValue) }
    }
}
