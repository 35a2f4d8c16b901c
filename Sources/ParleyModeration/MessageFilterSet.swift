import Foundation
import ParleyCore

/// The message filters in force (API.md §14.7), compiled: for a channel's custom type, its own
/// settings' filters, and the application's (`*`) where it has none or they say
/// `should_check_global`. Matching is case-insensitive for keywords and domains.
public struct MessageFilterSet: Sendable {
    /// One filter ready to run: its expressions and what it does with a match.
    struct Compiled: @unchecked Sendable {  // NSRegularExpression is immutable; matching is thread-safe.
        let expressions: [NSRegularExpression]
        let action: MessageFilterSettings.Action
    }

    struct ForType: Sendable {
        let settings: MessageFilterSettings
        let domains: Compiled?
        let profanity: Compiled?
    }

    let byType: [String: ForType]

    public static let empty = MessageFilterSet(byType: [:])

    public var isEmpty: Bool { byType.isEmpty }

    init(byType: [String: ForType]) {
        self.byType = byType
    }

    /// Compiles stored settings (checked when they were saved).
    public init(_ settings: [String: MessageFilterSettings]) throws {
        byType = try settings.mapValues { settings in
            ForType(
                settings: settings, domains: try Self.compile(domains: settings.domainFilter),
                profanity: try Self.compile(profanity: settings.profanityFilter))
        }
    }

    /// What `check` found: the text to store, and the triggered moderation to count a strike
    /// against when the profanity filter matched.
    public struct Outcome: Sendable {
        public let text: String
        public let strike: MessageFilterSettings.TriggeredModeration?
    }

    /// A message blocked by a filter: 403/900060, and a strike when it was the profanity filter.
    public struct Blocked: Error {
        public let strike: MessageFilterSettings.TriggeredModeration?
        public var error: ParleyError { .blockedByFilter }
    }

    /// Runs the filters that apply to a channel of `customType` on `text`: masks what a
    /// replacing filter matches; throws `Blocked` when a blocking one matches.
    public func check(_ text: String, customType: String) throws -> Outcome {
        guard !byType.isEmpty, !text.isEmpty else { return Outcome(text: text, strike: nil) }
        let own = customType.isEmpty ? nil : byType[customType]
        let application = byType[MessageFilterSettings.application]
        let moderation = (own ?? application)?.settings.profanityTriggeredModeration
        let strike = moderation.flatMap { $0.action == .none ? nil : $0 }
        var text = text
        var profane = false
        for (filter, isProfanity) in Self.applicable(own, application) {
            guard let masked = Self.run(filter, on: text) else { continue }
            profane = profane || isProfanity
            if filter.action == .block { throw Blocked(strike: isProfanity ? strike : nil) }
            text = masked
        }
        return Outcome(text: text, strike: profane ? strike : nil)
    }

    /// Each kind of filter from the channel type's settings, and the application's where they
    /// have none or check it too.
    private static func applicable(_ own: ForType?, _ application: ForType?) -> [(Compiled, Bool)] {
        var filters: [(Compiled, Bool)] = []
        if let domains = own?.domains { filters.append((domains, false)) }
        if own == nil || own?.settings.domainFilter.shouldCheckGlobal == true, let domains = application?.domains {
            filters.append((domains, false))
        }
        if let profanity = own?.profanity { filters.append((profanity, true)) }
        if own == nil || own?.settings.profanityFilter.shouldCheckGlobal == true, let profanity = application?.profanity {
            filters.append((profanity, true))
        }
        return filters
    }

    /// The text with every match masked by asterisks, or nil when nothing matched.
    private static func run(_ filter: Compiled, on text: String) -> String? {
        let masked = NSMutableString(string: text)
        var matched = false
        for expression in filter.expressions {
            let matches = expression.matches(in: masked as String, range: NSRange(location: 0, length: masked.length))
            for match in matches.reversed() where match.range.length > 0 {
                matched = true
                masked.replaceCharacters(in: match.range, with: String(repeating: "*", count: match.range.length))
            }
        }
        return matched ? masked as String : nil
    }

    private static let wordCharacter = "[\\p{L}\\p{N}_]"

    static func compile(profanity filter: MessageFilterSettings.ProfanityFilter) throws -> Compiled? {
        guard filter.type != .none, !(filter.keywords.isEmpty && filter.regexFilters.isEmpty) else { return nil }
        var expressions: [NSRegularExpression] = []
        if !filter.keywords.isEmpty {
            let words = filter.keywords.map { keyword -> String in
                let core = NSRegularExpression.escapedPattern(for: keyword.trimmingCharacters(in: CharacterSet(charactersIn: "*")))
                let head = keyword.hasPrefix("*") ? "\(wordCharacter)*" : "(?<!\(wordCharacter))"
                let tail = keyword.hasSuffix("*") ? "\(wordCharacter)*" : "(?!\(wordCharacter))"
                return head + core + tail
            }
            expressions.append(try NSRegularExpression(pattern: "(?:" + words.joined(separator: "|") + ")", options: [.caseInsensitive]))
        }
        expressions += try filter.regexFilters.map { try NSRegularExpression(pattern: $0) }
        return Compiled(expressions: expressions, action: filter.type)
    }

    static func compile(domains filter: MessageFilterSettings.DomainFilter) throws -> Compiled? {
        guard filter.type != .none, !filter.domains.isEmpty else { return nil }
        let hosts = filter.domains.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        // The domain and its subdomains, as a whole host name.
        let pattern = "(?<![\\p{L}\\p{N}.-])(?:[\\p{L}\\p{N}-]+\\.)*(?:\(hosts))(?![\\p{L}\\p{N}-])"
        return Compiled(expressions: [try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])], action: filter.type)
    }
}
