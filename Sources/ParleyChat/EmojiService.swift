import ParleyCore
import ParleyStore

/// The application's emoji set and reaction settings (API.md §14.6, Sendbird's
/// `/v3/emoji_categories`, `/v3/emojis`, `…/settings/reactions` and `…/use_default_emoji`): the
/// admin defines them; anyone signed in reads them (a client shows the set); reactions follow
/// them (`ReactionService`).
public struct EmojiService: Sendable {
    let store: Store
    let clock: Clock
    /// The most categories, and emojis in all, a set may hold.
    public static let maxCategories = 100
    public static let maxEmojis = 1_000

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    public func categories() async throws -> [EmojiCategory] {
        try await store.read { try $0.emojis.categories() }
    }

    public func category(_ id: Int64) async throws -> EmojiCategory {
        guard let category = try await store.read({ try $0.emojis.category(id) }) else { throw Self.noCategory(id) }
        return category
    }

    public func addCategories(_ caller: Caller, _ entries: [(name: String, url: String)]) async throws -> [EmojiCategory] {
        try caller.requireAdmin()
        guard !entries.isEmpty else { throw ParleyError.missing("emoji_categories") }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            guard try repositories.emojis.categories().count + entries.count <= Self.maxCategories else {
                throw ParleyError.tooMany("At most \(Self.maxCategories) emoji categories.")
            }
            return try entries.map { entry in
                EmojiCategory(
                    id: try repositories.emojis.insertCategory(name: entry.name, url: entry.url, now: now), name: entry.name,
                    url: entry.url, emojis: [])
            }
        }
    }

    public func updateCategory(_ caller: Caller, _ id: Int64, url: String) async throws -> EmojiCategory {
        try caller.requireAdmin()
        guard try await store.transaction({ try $0.emojis.updateCategory(id, url: url) }) else { throw Self.noCategory(id) }
        return try await category(id)
    }

    /// Deletes a category with its emojis.
    public func deleteCategory(_ caller: Caller, _ id: Int64) async throws {
        try caller.requireAdmin()
        guard try await store.transaction({ try $0.emojis.deleteCategory(id) }) else { throw Self.noCategory(id) }
    }

    public func emojis() async throws -> [Emoji] {
        try await store.read { try $0.emojis.all() }
    }

    public func emoji(_ key: String) async throws -> Emoji {
        guard let emoji = try await store.read({ try $0.emojis.emoji(key: key) }) else { throw Self.noEmoji(key) }
        return emoji
    }

    /// Adds emojis to a category; a key the set has already is 409/400202 (nothing is added).
    public func addEmojis(_ caller: Caller, categoryID: Int64, _ entries: [(key: String, url: String)]) async throws -> [Emoji] {
        try caller.requireAdmin()
        guard !entries.isEmpty else { throw ParleyError.missing("emojis") }
        guard Set(entries.map(\.key)).count == entries.count else { throw ParleyError.invalidValue("emojis", "a key is named twice") }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            guard try repositories.emojis.category(categoryID) != nil else { throw Self.noCategory(categoryID) }
            guard try repositories.emojis.all().count + entries.count <= Self.maxEmojis else {
                throw ParleyError.tooMany("At most \(Self.maxEmojis) emojis.")
            }
            guard let added = try repositories.emojis.insertEmojis(entries, categoryID: categoryID, now: now) else {
                throw ParleyError.alreadyExists("An emoji of one of these keys exists already.")
            }
            return added
        }
    }

    public func updateEmoji(_ caller: Caller, _ key: String, url: String) async throws -> Emoji {
        try caller.requireAdmin()
        guard let emoji = try await store.transaction({ try $0.emojis.updateEmoji(key: key, url: url) }) else { throw Self.noEmoji(key) }
        return emoji
    }

    public func deleteEmoji(_ caller: Caller, _ key: String) async throws {
        try caller.requireAdmin()
        guard try await store.transaction({ try $0.emojis.deleteEmoji(key: key) }) else { throw Self.noEmoji(key) }
    }

    public func settings() async throws -> ReactionSettings {
        try await store.read { try $0.emojis.settings() }
    }

    /// Changes what is given and returns the settings.
    public func updateSettings(_ caller: Caller, enabled: Bool?, useDefaultEmoji: Bool?) async throws -> ReactionSettings {
        try caller.requireAdmin()
        return try await store.transaction { repositories in
            var settings = try repositories.emojis.settings()
            if let enabled { settings.enabled = enabled }
            if let useDefaultEmoji { settings.useDefaultEmoji = useDefaultEmoji }
            try repositories.emojis.update(settings)
            return settings
        }
    }

    static func noCategory(_ id: Int64) -> ParleyError { ParleyError.notFound("Emoji category \(id) not found.") }
    static func noEmoji(_ key: String) -> ParleyError { ParleyError.notFound("Emoji \"\(key)\" not found.") }
}
