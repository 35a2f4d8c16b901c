import Hummingbird
import ParleyBots
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations
import ParleyUsers

/// Bots (API.md §14.8), Sendbird's `/v3/bots` paths: the admin's only.
struct BotController {
    let bots: BotService
    let limits: Limits
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("bots", use: create)
        routes.get("bots", use: list)
        routes.get("bots/{bot_userid}", use: view)
        routes.put("bots/{bot_userid}", use: update)
        routes.delete("bots/{bot_userid}", use: delete)
        routes.post("bots/{bot_userid}/channels", use: join)
        routes.delete("bots/{bot_userid}/channels", use: leave)
        routes.delete("bots/{bot_userid}/channels/{channel_url}", use: leaveOne)
        routes.post("bots/{bot_userid}/send", use: send)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: BotBody.self, context: context)
        guard let botID = body.botUserID else { throw ParleyError.missing("bot_userid") }
        guard let nickname = body.nickname else { throw ParleyError.missing("bot_nickname") }
        let user = try NewUser.checked(
            userID: try Validation.userID(botID, field: "bot_userid"), nickname: nickname, profileURL: body.profileURL, metadata: nil,
            issueSessionToken: false)
        let bot = try await bots.create(context.caller, user, try body.settings())
        return try JSONResponse.make(BotDTO(bot: bot))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await bots.list(context.caller, limit: limit, pageToken: token)
        return try JSONResponse.make(BotListDTO(bots: page.items.map(BotDTO.init), next: page.next))
    }

    @Sendable func view(_ request: Request, _ context: CallerContext) async throws -> Response {
        try JSONResponse.make(BotDTO(bot: try await bots.get(context.caller, try context.pathParameter("bot_userid"))))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: BotBody.self, context: context)
        var settings = try body.settings()
        settings.nickname = try body.nickname.map { try Validation.text($0, field: "bot_nickname", max: Validation.maxNicknameLength) }
        settings.profileURL = try body.profileURL.map {
            try Validation.text($0, field: "bot_profile_url", max: Validation.maxProfileURLLength)
        }
        let bot = try await bots.update(context.caller, try context.pathParameter("bot_userid"), settings)
        return try JSONResponse.make(BotDTO(bot: bot))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await bots.delete(context.caller, try context.pathParameter("bot_userid"))
        return JSONResponse.empty()
    }

    @Sendable func join(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: JoinChannelsBody.self, context: context)
        guard let channelURLs = body.channelURLs, !channelURLs.isEmpty else { throw ParleyError.missing("channel_urls") }
        let views = try await bots.join(context.caller, try context.pathParameter("bot_userid"), channelURLs: channelURLs)
        return JSONResponse.make(ListDTO(key: "channels", items: views.map(channelDTO)))
    }

    /// `?channel_url=a&channel_url=b` (or `a,b`); without it, every channel of the bot.
    @Sendable func leave(_ request: Request, _ context: CallerContext) async throws -> Response {
        let channelURLs = QueryParameters(request).all("channel_url")
        try await bots.leave(context.caller, try context.pathParameter("bot_userid"), channelURLs: channelURLs.isEmpty ? nil : channelURLs)
        return JSONResponse.empty()
    }

    @Sendable func leaveOne(_ request: Request, _ context: CallerContext) async throws -> Response {
        let channelURL = try context.pathParameter("channel_url")
        try await bots.leave(context.caller, try context.pathParameter("bot_userid"), channelURLs: [channelURL])
        return JSONResponse.empty()
    }

    @Sendable func send(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: BotMessageBody.self, context: context)
        guard let channelURL = body.channelURL else { throw ParleyError.missing("channel_url") }
        let botID = try context.pathParameter("bot_userid")
        let message = try await bots.send(context.caller, botID, channelURL, try body.validated(botID: botID, limits: limits))
        return JSONResponse.make(MessageDTO(message: message))
    }
}
