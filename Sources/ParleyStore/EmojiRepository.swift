import ParleyCore
import Postgres

/// SQL of the emoji set and the reaction settings (migration 0041, API.md §14.6).
public struct EmojiRepository {
    let connection: PostgresConnection

    /// Every category with its emojis, in the order they were added.
    public func categories() throws -> [EmojiCategory] {
        let emojis = Dictionary(grouping: try all(), by: \.categoryID)
        return try connection.query("SELECT id, name, url FROM emoji_categories ORDER BY id").map { row in
            let id: Int64 = try row.decode("id")
            return EmojiCategory(id: id, name: try row.decode("name"), url: try row.decode("url"), emojis: emojis[id] ?? [])
        }
    }

    public func category(_ id: Int64) throws -> EmojiCategory? {
        try categories().first { $0.id == id }
    }

    public func insertCategory(name: String, url: String, now: Int64) throws -> Int64 {
        try connection.query(
            "INSERT INTO emoji_categories (name, url, created_at) VALUES ($1, $2, $3) RETURNING id", [name, url, now]
        )[0].decode("id")
    }

    /// False when there is no such category.
    public func updateCategory(_ id: Int64, url: String) throws -> Bool {
        try connection.query("UPDATE emoji_categories SET url = $2 WHERE id = $1", [id, url]).affectedRows == 1
    }

    public func deleteCategory(_ id: Int64) throws -> Bool {
        try connection.query("DELETE FROM emoji_categories WHERE id = $1", [id]).affectedRows == 1
    }

    public func all() throws -> [Emoji] {
        try connection.query("SELECT id, key, url, category_id FROM emojis ORDER BY id").map(Self.emoji)
    }

    public func emoji(key: String) throws -> Emoji? {
        try connection.query("SELECT id, key, url, category_id FROM emojis WHERE key = $1", [key]).first.map(Self.emoji)
    }

    /// Adds emojis to a category; nil when a key is taken already.
    public func insertEmojis(_ entries: [(key: String, url: String)], categoryID: Int64, now: Int64) throws -> [Emoji]? {
        let rows = try connection.query(
            """
            INSERT INTO emojis (key, url, category_id, created_at) SELECT k, u, $3, $4 FROM unnest($1::text[], $2::text[]) AS e(k, u)
            ON CONFLICT (key) DO NOTHING RETURNING id, key, url, category_id
            """,
            [entries.map(\.key), entries.map(\.url), categoryID, now])
        guard rows.count == entries.count else { return nil }
        return try rows.map(Self.emoji).sorted { $0.id < $1.id }
    }

    public func updateEmoji(key: String, url: String) throws -> Emoji? {
        try connection.query("UPDATE emojis SET url = $2 WHERE key = $1 RETURNING id, key, url, category_id", [key, url]).first.map(
            Self.emoji)
    }

    public func deleteEmoji(key: String) throws -> Bool {
        try connection.query("DELETE FROM emojis WHERE key = $1", [key]).affectedRows == 1
    }

    public func settings() throws -> ReactionSettings {
        let row = try connection.query("SELECT reactions_enabled, use_default_emoji FROM application_settings")[0]
        return ReactionSettings(enabled: try row.decode("reactions_enabled"), useDefaultEmoji: try row.decode("use_default_emoji"))
    }

    public func update(_ settings: ReactionSettings) throws {
        try connection.query(
            "UPDATE application_settings SET reactions_enabled = $1, use_default_emoji = $2", [settings.enabled, settings.useDefaultEmoji])
    }

    /// What a reaction's key is checked against: the settings, whether a set is defined, and
    /// whether it holds `key` (one statement, in the reaction's transaction).
    public func reactionCheck(_ key: String) throws -> (settings: ReactionSettings, setDefined: Bool, keyInSet: Bool) {
        let row = try connection.query(
            """
            SELECT s.reactions_enabled, s.use_default_emoji, EXISTS (SELECT 1 FROM emojis) AS defined,
                EXISTS (SELECT 1 FROM emojis WHERE key = $1) AS known
            FROM application_settings s
            """,
            [key])[0]
        return (
            ReactionSettings(enabled: try row.decode("reactions_enabled"), useDefaultEmoji: try row.decode("use_default_emoji")),
            try row.decode("defined"), try row.decode("known")
        )
    }

    private static func emoji(_ row: PostgresRow) throws -> Emoji {
        Emoji(id: try row.decode("id"), key: try row.decode("key"), url: try row.decode("url"), categoryID: try row.decode("category_id"))
    }
}
