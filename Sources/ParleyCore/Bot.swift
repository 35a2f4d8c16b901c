/// A bot (API.md §14.8): a user whose channels' messages are posted to `callbackURL`.
public struct Bot: Sendable, Equatable {
    public var user: BasicUser
    public var botType: String
    public var callbackURL: String
    /// Forward only messages that start with "/" or mention the bot.
    public var isPrivacyMode: Bool
    public var enableMarkAsRead: Bool
    /// Deliveries carry the channel's members.
    public var showMember: Bool
    /// Joins the channels it is invited to (Sendbird's `channel_invitation_preference` 0) or waits.
    public var autoAccept: Bool
    /// The secret its deliveries are signed with (`webhook-signature`).
    public var token: String
    public var createdAt: Int64

    public init(
        user: BasicUser, botType: String, callbackURL: String, isPrivacyMode: Bool, enableMarkAsRead: Bool, showMember: Bool,
        autoAccept: Bool, token: String, createdAt: Int64
    ) {
        self.user = user
        self.botType = botType
        self.callbackURL = callbackURL
        self.isPrivacyMode = isPrivacyMode
        self.enableMarkAsRead = enableMarkAsRead
        self.showMember = showMember
        self.autoAccept = autoAccept
        self.token = token
        self.createdAt = createdAt
    }

    public static let maxBotTypeLength = 128
    public static let maxCallbackURLLength = 1024
}
