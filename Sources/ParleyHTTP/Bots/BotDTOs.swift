import ParleyBots
import ParleyCore
import ParleyHTTPConventions

/// `POST|PUT /v3/bots…`: Sendbird's fields; `channel_invitation_preference` 0 joins invited
/// channels at once, 1 waits for an accept.
struct BotBody: Decodable {
    @Checked var botUserID: String?
    @Checked var nickname: String?
    @Checked var profileURL: String?
    @Checked var botType: String?
    @Checked var callbackURL: String?
    @Checked var isPrivacyMode: Bool?
    @Checked var enableMarkAsRead: Bool?
    @Checked var showMember: Bool?
    @Checked var channelInvitationPreference: Int64?

    enum CodingKeys: String, CodingKey {
        case botUserID = "bot_userid"
        case nickname = "bot_nickname"
        case profileURL = "bot_profile_url"
        case botType = "bot_type"
        case callbackURL = "bot_callback_url"
        case isPrivacyMode = "is_privacy_mode"
        case enableMarkAsRead = "enable_mark_as_read"
        case showMember = "show_member"
        case channelInvitationPreference = "channel_invitation_preference"
    }

    /// The bot's own settings, each checked (the user's fields are `NewUser.checked`'s).
    func settings() throws -> BotSettings {
        var settings = BotSettings()
        settings.botType = try botType.map { try Validation.text($0, field: "bot_type", max: Bot.maxBotTypeLength) }
        settings.callbackURL = try callbackURL.map {
            try Validation.text($0, field: "bot_callback_url", max: Bot.maxCallbackURLLength)
        }
        settings.isPrivacyMode = isPrivacyMode
        settings.enableMarkAsRead = enableMarkAsRead
        settings.showMember = showMember
        settings.autoAccept = try channelInvitationPreference.map { preference in
            guard preference == 0 || preference == 1 else {
                throw ParleyError.invalidValue("channel_invitation_preference", "must be 0 (join at once) or 1 (wait for an accept)")
            }
            return preference == 0
        }
        return settings
    }
}

/// `POST /v3/bots/{bot_userid}/channels`.
struct JoinChannelsBody: Decodable {
    @Checked var channelURLs: [String]?

    enum CodingKeys: String, CodingKey {
        case channelURLs = "channel_urls"
    }
}

/// `POST /v3/bots/{bot_userid}/send`: a user message from the bot; `target_message_id` makes it
/// a reply in that message's thread (API.md §13.1).
struct BotMessageBody: Decodable {
    @Checked var channelURL: String?
    @Checked var message: String?
    @Checked var customType: String?
    @Checked var data: String?
    @Checked var sendPush: Bool?
    @Checked var mentioned: [String]?
    @Checked var dedupID: String?
    @Checked var targetMessageID: Int64?

    enum CodingKeys: String, CodingKey {
        case channelURL = "channel_url"
        case message
        case customType = "custom_type"
        case data
        case sendPush = "send_push"
        case mentioned
        case dedupID = "dedup_id"
        case targetMessageID = "target_message_id"
    }

    func validated(botID: String, limits: Limits) throws -> NewMessage {
        guard let message else { throw ParleyError.missing("message") }
        guard !message.isEmpty else { throw ParleyError.invalidValue("message", "must not be empty") }
        var new = NewMessage(
            type: .user, senderID: botID, message: try Validation.text(message, field: "message", max: limits.messageLength),
            customType: try Validation.text(customType ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(data ?? "", max: limits.dataBytes), mentionType: .users,
            mentionedUserIDs: try MessageFieldRules.mentionedUserIDs(mentioned) ?? [], sortedMetaarray: [],
            dedupID: try MessageFieldRules.dedupID(dedupID), isSilent: false)
        new.sendsPush = sendPush ?? true
        try MessageFieldRules.reply(to: targetMessageID, toChannel: false, &new)
        return new
    }
}

/// A bot as Sendbird shows it: `{ bot: {…}, bot_callback_url, is_privacy_mode, … }`. The token
/// is the secret the bot's deliveries are signed with (`webhook-signature`).
struct BotDTO: Encodable {
    let bot: Inner
    let callbackURL: String
    let isPrivacyMode: Bool
    let enableMarkAsRead: Bool
    let showMember: Bool
    let channelInvitationPreference: Int
    let createdAt: Int64

    struct Inner: Encodable {
        let userID: String
        let nickname: String
        let profileURL: String
        let botType: String
        let token: String
        let metadata: [String: String] = [:]

        enum CodingKeys: String, CodingKey {
            case userID = "bot_userid"
            case nickname = "bot_nickname"
            case profileURL = "bot_profile_url"
            case botType = "bot_type"
            case token = "bot_token"
            case metadata = "bot_metadata"
        }
    }

    init(bot: Bot) {
        self.bot = Inner(
            userID: bot.user.userID, nickname: bot.user.nickname, profileURL: bot.user.profileURL, botType: bot.botType, token: bot.token)
        callbackURL = bot.callbackURL
        isPrivacyMode = bot.isPrivacyMode
        enableMarkAsRead = bot.enableMarkAsRead
        showMember = bot.showMember
        channelInvitationPreference = bot.autoAccept ? 0 : 1
        createdAt = bot.createdAt
    }

    enum CodingKeys: String, CodingKey {
        case bot
        case callbackURL = "bot_callback_url"
        case isPrivacyMode = "is_privacy_mode"
        case enableMarkAsRead = "enable_mark_as_read"
        case showMember = "show_member"
        case channelInvitationPreference = "channel_invitation_preference"
        case createdAt = "created_at"
    }
}

struct BotListDTO: Encodable {
    let bots: [BotDTO]
    let next: String
}
