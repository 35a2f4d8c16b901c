import Foundation
import ParleyCore
import ParleyStore

/// A change to a custom type's message moderation settings; nil fields stay.
public struct MessageFilterUpdate: Sendable {
    public var domains: [String]?
    public var domainAction: MessageFilterSettings.Action?
    public var domainChecksGlobal: Bool?
    public var keywords: [String]?
    public var regexFilters: [String]?
    public var profanityAction: MessageFilterSettings.Action?
    public var profanityChecksGlobal: Bool?
    public var strikeCount: Int?
    public var strikeDuration: Int?
    public var strikeAction: MessageFilterSettings.TriggeredModeration.Action?

    public init() {}
}

/// Message moderation settings by channel custom type (API.md §14.7, Sendbird's
/// `PUT /v3/applications/settings_global/{custom_type}`; `*` is the application's): the admin's.
public struct MessageFilterService: Sendable {
    let store: Store
    let clock: Clock
    let filters: MessageFilters

    public init(store: Store, clock: Clock, filters: MessageFilters) {
        self.store = store
        self.clock = clock
        self.filters = filters
    }

    public func update(_ caller: Caller, customType: String, _ update: MessageFilterUpdate) async throws -> MessageFilterSettings {
        try caller.requireAdmin()
        guard !customType.isEmpty else { throw ParleyError.invalidValue("custom_type", "must not be empty") }
        let customType = try Validation.text(customType, field: "custom_type", max: Validation.maxCustomTypeLength)
        let now = clock.nowMillis
        let saved = try await store.transaction { repositories in
            var settings = try repositories.messageFilters.find(customType) ?? MessageFilterSettings()
            try Self.apply(update, to: &settings)
            // Every expression compiles before anything is saved.
            _ = try MessageFilterSet([customType: settings])
            try repositories.messageFilters.save(customType, settings, now: now)
            return settings
        }
        filters.invalidate()
        return saved
    }

    private static func apply(_ update: MessageFilterUpdate, to settings: inout MessageFilterSettings) throws {
        if let domains = update.domains { settings.domainFilter.domains = try domains.map(domain).orderedUnique() }
        if let action = update.domainAction { settings.domainFilter.type = action }
        if let global = update.domainChecksGlobal { settings.domainFilter.shouldCheckGlobal = global }
        if let keywords = update.keywords { settings.profanityFilter.keywords = try keywords.map(keyword).orderedUnique() }
        if let regexes = update.regexFilters { settings.profanityFilter.regexFilters = try regexes.map(regex) }
        if let action = update.profanityAction { settings.profanityFilter.type = action }
        if let global = update.profanityChecksGlobal { settings.profanityFilter.shouldCheckGlobal = global }
        if let count = update.strikeCount { settings.profanityTriggeredModeration.count = count }
        if let duration = update.strikeDuration { settings.profanityTriggeredModeration.duration = duration }
        if let action = update.strikeAction { settings.profanityTriggeredModeration.action = action }
        try check(settings)
    }

    private static func check(_ settings: MessageFilterSettings) throws {
        guard settings.domainFilter.domains.count <= MessageFilterSettings.maxDomains else {
            throw ParleyError.invalidValue("domain_filter.domains", "at most \(MessageFilterSettings.maxDomains)")
        }
        guard settings.profanityFilter.keywords.count <= MessageFilterSettings.maxKeywords else {
            throw ParleyError.invalidValue("profanity_filter.keywords", "at most \(MessageFilterSettings.maxKeywords)")
        }
        guard settings.profanityFilter.regexFilters.count <= MessageFilterSettings.maxRegexes else {
            throw ParleyError.invalidValue("profanity_filter.regex_filters", "at most \(MessageFilterSettings.maxRegexes)")
        }
        let moderation = settings.profanityTriggeredModeration
        if moderation.action != .none {
            guard (1...1_000).contains(moderation.count) else {
                throw ParleyError.invalidValue("profanity_triggered_moderation.count", "must be between 1 and 1000")
            }
            guard (1...2_592_000).contains(moderation.duration) else {
                throw ParleyError.invalidValue("profanity_triggered_moderation.duration", "must be between 1 and 2592000 seconds")
            }
        }
    }

    /// A host name (lower case), such as `example.com`.
    private static func domain(_ text: String) throws -> String {
        let host = text.lowercased()
        guard (1...253).contains(host.utf8.count),
            host.utf8.allSatisfy({ $0 == 0x2E || $0 == 0x2D || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }),
            !host.hasPrefix("."), !host.hasSuffix("."), host.contains(".")
        else { throw ParleyError.invalidValue("domain_filter.domains", "\"\(text)\" is not a domain name such as example.com") }
        return host
    }

    /// A word, with `*` allowed at either end.
    private static func keyword(_ text: String) throws -> String {
        let word = try Validation.text(text, field: "profanity_filter.keywords", max: 100)
        guard !word.trimmingCharacters(in: CharacterSet(charactersIn: "*")).trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ParleyError.invalidValue("profanity_filter.keywords", "a keyword needs a word")
        }
        return word.lowercased()
    }

    private static func regex(_ text: String) throws -> String {
        let pattern = try Validation.text(text, field: "profanity_filter.regex_filters", max: MessageFilterSettings.maxRegexLength)
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw ParleyError.invalidValue("profanity_filter.regex_filters", "\"\(text)\" is not a regular expression")
        }
        return pattern
    }
}
