import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions

/// The emoji set and the reaction settings (API.md §14.6): Sendbird's `/v3/emoji_categories`,
/// `/v3/emojis`, `/v3/applications/settings/reactions` and `…/use_default_emoji`. Reads for
/// anyone signed in; changes for the admin.
struct EmojiController {
    let emojis: EmojiService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("emoji_categories", use: categories)
        routes.post("emoji_categories", use: addCategories)
        routes.get("emoji_categories/{emoji_category_id}", use: category)
        routes.put("emoji_categories/{emoji_category_id}", use: updateCategory)
        routes.delete("emoji_categories/{emoji_category_id}", use: deleteCategory)
        routes.get("emojis", use: list)
        routes.post("emojis", use: addEmojis)
        routes.get("emojis/{emoji_key}", use: emoji)
        routes.put("emojis/{emoji_key}", use: updateEmoji)
        routes.delete("emojis/{emoji_key}", use: deleteEmoji)
        routes.put("applications/settings/reactions", use: reactions)
        routes.put("applications/settings/use_default_emoji", use: useDefaultEmoji)
        return routes
    }

    /// `{ emoji_hash, emoji_categories }`: the hash changes whenever the set does (a client's cache key).
    @Sendable func categories(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(EmojiSetDTO(categories: try await emojis.categories()))
    }

    @Sendable func addCategories(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: CategoriesBody.self, context: context)
        let entries = try (body.categories ?? []).map { ($0.name, try Validation.emojiURL($0.url)) }
        for entry in entries { _ = try Validation.text(entry.0, field: "name", max: 100) }
        let added = try await emojis.addCategories(context.caller, entries)
        return JSONResponse.make(ListDTO(key: "emoji_categories", items: added.map(CategoryDTO.init)))
    }

    @Sendable func category(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(CategoryDTO(category: try await emojis.category(try context.numberParameter("emoji_category_id"))))
    }

    @Sendable func updateCategory(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: URLBody.self, context: context)
        guard let url = body.url else { throw ParleyError.missing("url") }
        let id = try context.numberParameter("emoji_category_id")
        return JSONResponse.make(
            CategoryDTO(category: try await emojis.updateCategory(context.caller, id, url: try Validation.emojiURL(url))))
    }

    @Sendable func deleteCategory(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await emojis.deleteCategory(context.caller, try context.numberParameter("emoji_category_id"))
        return JSONResponse.empty()
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(ListDTO(key: "emojis", items: try await emojis.emojis().map(EmojiDTO.init)))
    }

    @Sendable func addEmojis(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: EmojisBody.self, context: context)
        guard let categoryID = body.categoryID else { throw ParleyError.missing("emoji_category_id") }
        let entries = try (body.emojis ?? []).map { (try Validation.emojiKey($0.key), try Validation.emojiURL($0.url)) }
        let added = try await emojis.addEmojis(context.caller, categoryID: categoryID, entries)
        return JSONResponse.make(ListDTO(key: "emojis", items: added.map(EmojiDTO.init)))
    }

    @Sendable func emoji(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(EmojiDTO(emoji: try await emojis.emoji(try context.pathParameter("emoji_key"))))
    }

    @Sendable func updateEmoji(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: URLBody.self, context: context)
        guard let url = body.url else { throw ParleyError.missing("url") }
        let key = try context.pathParameter("emoji_key")
        return JSONResponse.make(EmojiDTO(emoji: try await emojis.updateEmoji(context.caller, key, url: try Validation.emojiURL(url))))
    }

    @Sendable func deleteEmoji(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await emojis.deleteEmoji(context.caller, try context.pathParameter("emoji_key"))
        return JSONResponse.empty()
    }

    @Sendable func reactions(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: FlagBody.self, context: context)
        guard let enabled = body.enabled else { throw ParleyError.missing("enabled") }
        let settings = try await emojis.updateSettings(context.caller, enabled: enabled, useDefaultEmoji: nil)
        return try JSONResponse.make(["reactions": settings.enabled])
    }

    @Sendable func useDefaultEmoji(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: FlagBody.self, context: context)
        guard let use = body.useDefaultEmoji else { throw ParleyError.missing("use_default_emoji") }
        let settings = try await emojis.updateSettings(context.caller, enabled: nil, useDefaultEmoji: use)
        return try JSONResponse.make(["use_default_emoji": settings.useDefaultEmoji])
    }
}
