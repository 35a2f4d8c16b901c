/// An emoji of the application's set (API.md §14.6): a reaction key and its picture.
public struct Emoji: Sendable, Equatable {
    public let id: Int64
    public let key: String
    public let url: String
    public let categoryID: Int64

    public init(id: Int64, key: String, url: String, categoryID: Int64) {
        (self.id, self.key, self.url, self.categoryID) = (id, key, url, categoryID)
    }
}

public struct EmojiCategory: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let url: String
    public var emojis: [Emoji]

    public init(id: Int64, name: String, url: String, emojis: [Emoji]) {
        (self.id, self.name, self.url, self.emojis) = (id, name, url, emojis)
    }
}

/// Whether reactions are on, and which keys they take.
public struct ReactionSettings: Sendable, Equatable {
    public var enabled: Bool
    public var useDefaultEmoji: Bool

    public init(enabled: Bool, useDefaultEmoji: Bool) {
        (self.enabled, self.useDefaultEmoji) = (enabled, useDefaultEmoji)
    }

    /// A reaction's key is refused when reactions are off (403), or when the application defines
    /// its own set, does not use the default one, and the set lacks the key (400111).
    public func check(_ key: String, setDefined: Bool, keyInSet: Bool) throws {
        guard enabled else { throw ParleyError.forbidden("Reactions are turned off for this application.") }
        guard useDefaultEmoji || !setDefined || keyInSet else {
            throw ParleyError.invalidValue("reaction", "not one of the application's emojis")
        }
    }
}

extension Validation {
    /// An emoji's key: 1–128 letters, digits and `_ - . : +`.
    public static func emojiKey(_ value: String, field: String = "key") throws -> String {
        try identifier(value, field: field, max: 128, allowed: "_-.:+")
    }

    /// An emoji's or a category's picture: an http(s) URL of at most 2,048 characters, with a host
    /// (a name or an IPv4 address: no brackets, no credentials) and no white space.
    public static func emojiURL(_ value: String, field: String = "url") throws -> String {
        let text = try self.text(value, field: field, max: 2048)
        let rest = text.hasPrefix("https://") ? text.dropFirst(8) : text.hasPrefix("http://") ? text.dropFirst(7) : nil
        let host = rest?.prefix { !"/?#".contains($0) }
        guard let host, !host.isEmpty, !host.contains(where: { "[]@".contains($0) }), !text.contains(where: \.isWhitespace) else {
            throw ParleyError.invalidValue(field, "an http(s) URL")
        }
        return text
    }
}
