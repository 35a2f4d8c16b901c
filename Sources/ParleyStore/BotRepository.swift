import ParleyCore
import Postgres

/// SQL of `bots` (migration 0042, API.md §14.8); a bot's user row is `UserRepository`'s, its
/// invitation preference `InvitationPreferenceRepository`'s.
public struct BotRepository {
    let connection: PostgresConnection

    private static let columns = """
        b.user_id, u.nickname, u.profile_url, u.is_active, b.bot_type, b.callback_url, b.is_privacy_mode, b.enable_mark_as_read,
        b.show_member, COALESCE(p.auto_accept, true) AS auto_accept, b.token, b.created_at
        FROM bots b JOIN users u ON u.user_id = b.user_id LEFT JOIN channel_invitation_preferences p ON p.user_id = b.user_id
        """

    private static func bot(_ row: PostgresRow) throws -> Bot {
        Bot(
            user: try UserRepository.basicUser(row), botType: try row.decode("bot_type"), callbackURL: try row.decode("callback_url"),
            isPrivacyMode: try row.decode("is_privacy_mode"), enableMarkAsRead: try row.decode("enable_mark_as_read"),
            showMember: try row.decode("show_member"), autoAccept: try row.decode("auto_accept"), token: try row.decode("token"),
            createdAt: try row.decode("created_at"))
    }

    /// Adds the bot row of a user inserted in the same transaction, with its invitation preference.
    public func insert(_ bot: Bot) throws {
        try connection.query(
            """
            INSERT INTO bots (user_id, bot_type, callback_url, is_privacy_mode, enable_mark_as_read, show_member, token, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                bot.user.userID, bot.botType, bot.callbackURL, bot.isPrivacyMode, bot.enableMarkAsRead, bot.showMember, bot.token,
                bot.createdAt
            ])
        try InvitationPreferenceRepository(connection: connection).setAutoAccept(bot.user.userID, bot.autoAccept)
    }

    /// Writes the bot's own settings (its user's fields are `UserRepository.update`'s).
    public func update(_ bot: Bot) throws {
        try connection.query(
            """
            UPDATE bots SET bot_type = $2, callback_url = $3, is_privacy_mode = $4, enable_mark_as_read = $5, show_member = $6
            WHERE user_id = $1
            """,
            [bot.user.userID, bot.botType, bot.callbackURL, bot.isPrivacyMode, bot.enableMarkAsRead, bot.showMember])
        try InvitationPreferenceRepository(connection: connection).setAutoAccept(bot.user.userID, bot.autoAccept)
    }

    public func find(_ userID: String) throws -> Bot? {
        try connection.query("SELECT \(Self.columns) WHERE b.user_id = $1", [userID]).first.map(Self.bot)
    }

    public func find(_ userIDs: [String]) throws -> [Bot] {
        try connection.query("SELECT \(Self.columns) WHERE b.user_id = ANY($1)", [userIDs]).map(Self.bot)
    }

    /// Bots in user id order after `afterUserID`.
    public func list(after afterUserID: String?, limit: Int) throws -> [Bot] {
        try connection.query(
            "SELECT \(Self.columns) WHERE ($1::text IS NULL OR b.user_id > $1) ORDER BY b.user_id LIMIT $2",
            [afterUserID, Int64(limit)]
        ).map(Self.bot)
    }

    /// Whether there is any bot: the delivery queue is drained for bots even with the webhook off.
    public func any() throws -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM bots) AS any")[0].decode("any")
    }

    /// Drops the deliveries still queued for a bot about to be deleted.
    public func dropDeliveries(_ userID: String) throws {
        try connection.query("DELETE FROM webhook_deliveries WHERE bot_user_id = $1", [userID])
    }
}
