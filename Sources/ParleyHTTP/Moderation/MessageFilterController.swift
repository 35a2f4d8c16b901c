import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration

/// Message moderation by channel custom type (API.md §14.7), Sendbird's
/// `PUT /v3/applications/settings_global/{custom_type}` (`*`: the application's): the admin's.
struct MessageFilterController {
    let filters: MessageFilterService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.put("applications/settings_global/{custom_type}", use: update)
        return routes
    }

    /// Absent fields stay; answers the custom type's settings as they are now.
    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: MessageFilterBody.self, context: context)
        let settings = try await filters.update(context.caller, customType: try context.pathParameter("custom_type"), try body.update())
        return try JSONResponse.make(MessageFilterDTO(customType: try context.pathParameter("custom_type"), settings: settings))
    }
}

struct MessageFilterBody: Decodable {
    var domainFilter: DomainPart?
    var profanityFilter: ProfanityPart?
    var moderation: ModerationPart?
    var imageModeration: ImagePart?

    struct DomainPart: Decodable {
        @Checked var domains: [String]?
        @Checked var type: Int64?
        @Checked var shouldCheckGlobal: Bool?

        enum CodingKeys: String, CodingKey {
            case domains, type
            case shouldCheckGlobal = "should_check_global"
        }
    }

    struct ProfanityPart: Decodable {
        @Checked var keywords: [String]?
        var regexFilters: [RegexPart]?
        @Checked var type: Int64?
        @Checked var shouldCheckGlobal: Bool?

        enum CodingKeys: String, CodingKey {
            case keywords, type
            case regexFilters = "regex_filters"
            case shouldCheckGlobal = "should_check_global"
        }
    }

    struct RegexPart: Decodable {
        @Checked var regex: String?
    }

    struct ModerationPart: Decodable {
        @Checked var count: Int64?
        @Checked var duration: Int64?
        @Checked var action: Int64?
    }

    /// Image moderation needs an image-classification provider, which Parley does not have: only
    /// `type` 0 (off) is accepted.
    struct ImagePart: Decodable {
        @Checked var type: Int64?
    }

    enum CodingKeys: String, CodingKey {
        case domainFilter = "domain_filter"
        case profanityFilter = "profanity_filter"
        case moderation = "profanity_triggered_moderation"
        case imageModeration = "image_moderation"
    }

    func update() throws -> MessageFilterUpdate {
        if let type = imageModeration?.type, type != 0 {
            throw ParleyError.invalidValue("image_moderation.type", "image moderation is not available (only 0, off)")
        }
        var update = MessageFilterUpdate()
        update.domains = domainFilter?.domains
        update.domainAction = try domainFilter?.type.map { try Self.action(Int(clamping: $0), field: "domain_filter.type") }
        update.domainChecksGlobal = domainFilter?.shouldCheckGlobal
        update.keywords = profanityFilter?.keywords
        update.regexFilters = try profanityFilter?.regexFilters?.map { part in
            guard let regex = part.regex else { throw ParleyError.missing("profanity_filter.regex_filters.regex") }
            return regex
        }
        update.profanityAction = try profanityFilter?.type.map { try Self.action(Int(clamping: $0), field: "profanity_filter.type") }
        update.profanityChecksGlobal = profanityFilter?.shouldCheckGlobal
        update.strikeCount = moderation?.count.map { Int(clamping: $0) }
        update.strikeDuration = moderation?.duration.map { Int(clamping: $0) }
        update.strikeAction = try moderation?.action.map { action in
            guard let parsed = MessageFilterSettings.TriggeredModeration.Action(rawValue: Int(clamping: action)) else {
                throw ParleyError.invalidValue("profanity_triggered_moderation.action", "must be 0 (none), 1 (mute), 2 (kick) or 3 (ban)")
            }
            return parsed
        }
        return update
    }

    private static func action(_ value: Int, field: String) throws -> MessageFilterSettings.Action {
        guard let action = MessageFilterSettings.Action(rawValue: value) else {
            throw ParleyError.invalidValue(field, "must be 0 (none), 1 (block) or 2 (replace)")
        }
        return action
    }
}

/// The settings as stored, with Sendbird's field names and `regex_filters` as `[{ regex }]`.
struct MessageFilterDTO: Encodable {
    let customType: String
    let settings: MessageFilterSettings

    enum CodingKeys: String, CodingKey {
        case customType = "custom_type"
        case domainFilter = "domain_filter"
        case profanityFilter = "profanity_filter"
        case moderation = "profanity_triggered_moderation"
        case imageModeration = "image_moderation"
    }

    private struct Profanity: Encodable {
        let keywords: [String]
        let regexFilters: [[String: String]]
        let type: Int
        let shouldCheckGlobal: Bool

        enum CodingKeys: String, CodingKey {
            case keywords, type
            case regexFilters = "regex_filters"
            case shouldCheckGlobal = "should_check_global"
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(customType, forKey: .customType)
        try container.encode(settings.domainFilter, forKey: .domainFilter)
        let profanity = settings.profanityFilter
        try container.encode(
            Profanity(
                keywords: profanity.keywords, regexFilters: profanity.regexFilters.map { ["regex": $0] }, type: profanity.type.rawValue,
                shouldCheckGlobal: profanity.shouldCheckGlobal), forKey: .profanityFilter)
        try container.encode(settings.profanityTriggeredModeration, forKey: .moderation)
        try container.encode(["type": 0], forKey: .imageModeration)
    }
}
