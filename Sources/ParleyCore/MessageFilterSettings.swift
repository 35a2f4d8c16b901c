/// The message moderation settings of a channel custom type (API.md §14.7, Sendbird's
/// `settings_global/{custom_type}`), as stored and shown.
public struct MessageFilterSettings: Sendable, Equatable, Codable {
    /// What a filter does with what it matches (Sendbird's `type`).
    public enum Action: Int, Sendable, Codable {
        case none = 0
        /// The message is refused (403/900060).
        case block = 1
        /// What matched is replaced by asterisks.
        case replace = 2
    }

    public struct DomainFilter: Sendable, Equatable, Codable {
        public var domains: [String] = []
        public var type: Action = .none
        /// Also apply the application's settings (custom type `*`).
        public var shouldCheckGlobal = false

        public init() {}

        enum CodingKeys: String, CodingKey {
            case domains, type
            case shouldCheckGlobal = "should_check_global"
        }
    }

    public struct ProfanityFilter: Sendable, Equatable, Codable {
        /// Whole words, case-insensitive; `*` at either end also matches longer words (`*bad` matches "toobad").
        public var keywords: [String] = []
        public var regexFilters: [String] = []
        public var type: Action = .none
        public var shouldCheckGlobal = false

        public init() {}

        enum CodingKeys: String, CodingKey {
            case keywords, type
            case regexFilters = "regex_filters"
            case shouldCheckGlobal = "should_check_global"
        }
    }

    /// After `count` hits of the profanity filter within `duration` seconds in a channel, the
    /// user is muted (1), kicked out of the channel (2) or banned (3) there, for `duration` seconds.
    public struct TriggeredModeration: Sendable, Equatable, Codable {
        public enum Action: Int, Sendable, Codable {
            case none = 0
            case mute = 1
            case kick = 2
            case ban = 3
        }

        public var count = 0
        public var duration = 0
        public var action: Action = .none

        public init() {}
    }

    public var domainFilter = DomainFilter()
    public var profanityFilter = ProfanityFilter()
    public var profanityTriggeredModeration = TriggeredModeration()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case domainFilter = "domain_filter"
        case profanityFilter = "profanity_filter"
        case profanityTriggeredModeration = "profanity_triggered_moderation"
    }

    /// The custom type whose settings are the application's own.
    public static let application = "*"
    public static let maxKeywords = 1_000
    public static let maxDomains = 1_000
    public static let maxRegexes = 20
    public static let maxRegexLength = 200
}
