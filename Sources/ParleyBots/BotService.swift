import OutboundPolicy
import ParleyChat
import ParleyCore
import ParleyStore
import ParleyUsers
import ParleyWebhooks

/// A bot's settings as `POST|PUT /v3/bots` give them; nil fields of an update stay.
public struct BotSettings: Sendable {
    public var nickname: String?
    public var profileURL: String?
    public var botType: String?
    public var callbackURL: String?
    public var isPrivacyMode: Bool?
    public var enableMarkAsRead: Bool?
    public var showMember: Bool?
    public var autoAccept: Bool?

    public init() {}
}

/// Bots (API.md §14.8, Sendbird's bot interface): the admin's only. A bot is a user with a
/// callback URL; the messages of its group channels reach it through the webhook delivery queue
/// (`EventRepository.flush` queues them, `WebhookDispatcher` posts them), and it answers with
/// `send`, a message sent as the bot by the ordinary send path.
public struct BotService: Sendable {
    let store: Store
    let clock: Clock
    let outbound: OutboundGuard
    let pageTokens: PageTokenCodec
    let users: UserService
    let memberships: MembershipService
    let messages: MessageService

    public init(
        store: Store, clock: Clock, outbound: OutboundGuard, pageTokens: PageTokenCodec, users: UserService, memberships: MembershipService,
        messages: MessageService
    ) {
        self.store = store
        self.clock = clock
        self.outbound = outbound
        self.pageTokens = pageTokens
        self.users = users
        self.memberships = memberships
        self.messages = messages
    }

    /// Creates the bot's user and the bot in one transaction (409/400202 when the id is taken).
    public func create(_ caller: Caller, _ newUser: NewUser, _ settings: BotSettings) async throws -> Bot {
        try caller.requireAdmin()
        guard let callbackURL = settings.callbackURL else { throw ParleyError.missing("bot_callback_url") }
        guard let botType = settings.botType else { throw ParleyError.missing("bot_type") }
        guard let isPrivacyMode = settings.isPrivacyMode else { throw ParleyError.missing("is_privacy_mode") }
        try await requireReachable(callbackURL)
        let now = clock.nowMillis
        var user = newUser.user
        user.createdAt = now
        let bot = Bot(
            user: BasicUser(userID: user.userID, nickname: user.nickname, profileURL: user.profileURL, isActive: true), botType: botType,
            callbackURL: callbackURL, isPrivacyMode: isPrivacyMode, enableMarkAsRead: settings.enableMarkAsRead ?? true,
            showMember: settings.showMember ?? false, autoAccept: settings.autoAccept ?? true, token: WebhookSigner.newSecret(),
            createdAt: now)
        return try await store.transaction { [user] repositories in
            try repositories.users.insert(user)
            try repositories.bots.insert(bot)
            return bot
        }
    }

    public func get(_ caller: Caller, _ botID: String) async throws -> Bot {
        try caller.requireAdmin()
        return try await store.read { try Self.existing(botID, $0) }
    }

    /// Bots in user id order.
    public func list(_ caller: Caller, limit: Int, pageToken: String?) async throws -> Page<Bot> {
        try caller.requireAdmin()
        let after = try pageToken.map { try pageTokens.decode($0, scope: "bots") }
        guard after == nil || after?.count == 1 else { throw ParleyError.invalidPageToken }
        let bots = try await store.read { try $0.bots.list(after: after?.first, limit: limit + 1) }
        let page = Array(bots.prefix(limit))
        return Page(items: page, positions: page.map { [$0.user.userID] }, more: bots.count > limit, tokens: pageTokens, scope: "bots")
    }

    public func update(_ caller: Caller, _ botID: String, _ settings: BotSettings) async throws -> Bot {
        try caller.requireAdmin()
        if let callbackURL = settings.callbackURL { try await requireReachable(callbackURL) }
        return try await store.transaction { repositories in
            var bot = try Self.existing(botID, repositories)
            if settings.nickname != nil || settings.profileURL != nil {
                try repositories.users.update(botID, UserUpdate(nickname: settings.nickname, profileURL: settings.profileURL))
            }
            if let botType = settings.botType { bot.botType = botType }
            if let callbackURL = settings.callbackURL { bot.callbackURL = callbackURL }
            if let isPrivacyMode = settings.isPrivacyMode { bot.isPrivacyMode = isPrivacyMode }
            if let enableMarkAsRead = settings.enableMarkAsRead { bot.enableMarkAsRead = enableMarkAsRead }
            if let showMember = settings.showMember { bot.showMember = showMember }
            if let autoAccept = settings.autoAccept { bot.autoAccept = autoAccept }
            try repositories.bots.update(bot)
            return try Self.existing(botID, repositories)
        }
    }

    /// Deletes the bot's user (it leaves its channels as any deleted user does) and what is still
    /// queued for it.
    public func delete(_ caller: Caller, _ botID: String) async throws {
        try caller.requireAdmin()
        try await store.transaction { repositories in
            _ = try Self.existing(botID, repositories)
            try repositories.bots.dropDeliveries(botID)
        }
        try await users.delete(caller, botID)
    }

    /// The bot joins each group channel (private ones too: the admin adds it), in the order given.
    public func join(_ caller: Caller, _ botID: String, channelURLs: [String]) async throws -> [ChannelView] {
        _ = try await get(caller, botID)
        var views: [ChannelView] = []
        for channelURL in channelURLs.orderedUnique() { views.append(try await memberships.admit(caller, channelURL, userID: botID)) }
        return views
    }

    /// The bot leaves these channels, or all of its channels when `channelURLs` is nil.
    public func leave(_ caller: Caller, _ botID: String, channelURLs: [String]?) async throws {
        _ = try await get(caller, botID)
        guard let channelURLs else {
            return try await memberships.leaveEvery(caller, userID: botID)
        }
        for channelURL in channelURLs.orderedUnique() {
            try await memberships.leave(caller, channelURL, userIDs: [botID], leaveAll: false)
        }
    }

    /// The bot's answer: a message sent as the bot into a channel it has joined.
    public func send(_ caller: Caller, _ botID: String, _ channelURL: String, _ message: NewMessage) async throws -> Message {
        _ = try await get(caller, botID)
        var message = message
        message.senderID = botID
        return try await messages.send(caller, .group, channelURL, message).message
    }

    static func existing(_ botID: String, _ repositories: Repositories) throws -> Bot {
        guard let bot = try repositories.bots.find(botID) else { throw ParleyError.notFound("Bot \"\(botID)\" not found.") }
        return bot
    }

    /// A callback URL the outbound guard refuses is 400111 now rather than failed deliveries later.
    private func requireReachable(_ url: String) async throws {
        guard url.count <= Bot.maxCallbackURLLength else {
            throw ParleyError.invalidValue("bot_callback_url", "must be at most \(Bot.maxCallbackURLLength) characters")
        }
        do {
            _ = try await outbound.check(url)
        } catch let refusal as OutboundRefusal {
            throw ParleyError.invalidValue("bot_callback_url", "not a destination bots may be reached at (\(refusal))")
        }
    }
}
