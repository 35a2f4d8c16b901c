import ParleyCore
import Postgres

/// SQL for `open_channel_participants` (API.md §8.3). Every statement that adds or removes
/// participants moves the channel's `participant_count` in the same statement, under the
/// channel row's lock the caller holds, so the count is always the number of rows.
public struct ParticipantRepository {
    let connection: PostgresConnection

    /// Enters the user (or renews their enter): an enter over REST holds for `holdMillis` on the
    /// database's clock (the one every instance shares), one over a socket (nil) while the user
    /// has a socket. Returns whether they were not a participant before.
    public func enter(_ channelURL: String, _ userID: String, holdMillis: Int64?, now: Int64) throws -> Bool {
        let rows = try connection.query(
            """
            WITH entered AS (
                INSERT INTO open_channel_participants AS p (channel_url, user_id, entered_at, held_until)
                VALUES ($1, $2, $4, CASE WHEN $3::bigint IS NULL THEN 0 ELSE parley_now_ms() + $3::bigint END)
                ON CONFLICT (channel_url, user_id) DO UPDATE SET held_until = GREATEST(p.held_until, EXCLUDED.held_until)
                RETURNING (xmax = 0) AS inserted
            ), counted AS (
                UPDATE open_channels SET participant_count = participant_count + 1
                WHERE channel_url = $1 AND (SELECT inserted FROM entered)
            )
            SELECT inserted FROM entered
            """,
            [channelURL, userID, holdMillis, now]
        )
        return try rows[0].decode("inserted")
    }

    /// Whether the user is in the channel and whether they are one of its operators, in one read.
    public func standing(_ channelURL: String, _ userID: String) throws -> (isParticipant: Bool, isOperator: Bool) {
        let row = try connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM open_channel_participants WHERE channel_url = $1 AND user_id = $2) AS participant,
                EXISTS (SELECT 1 FROM open_channel_operators WHERE channel_url = $1 AND user_id = $2) AS operator
            """,
            [channelURL, userID]
        )[0]
        return (try row.decode("participant"), try row.decode("operator"))
    }

    public func isParticipant(_ channelURL: String, _ userID: String) throws -> Bool {
        try connection.query(
            "SELECT EXISTS (SELECT 1 FROM open_channel_participants WHERE channel_url = $1 AND user_id = $2) AS yes",
            [channelURL, userID]
        )[0].decode("yes")
    }

    /// Takes these users out of the channel (with `onlyLapsed`, only those whose participation
    /// nothing holds any more: see `lapsedCondition`); returns those who were in it.
    @discardableResult
    public func exit(_ channelURL: String, _ userIDs: [String], onlyLapsed: Bool = false) throws -> [String] {
        let rows = try connection.query(
            """
            WITH gone AS (
                DELETE FROM open_channel_participants p WHERE p.channel_url = $1 AND p.user_id = ANY($2::text[])
                    \(onlyLapsed ? "AND " + Self.lapsedCondition("p") : "")
                RETURNING p.user_id
            ), counted AS (
                UPDATE open_channels SET participant_count = participant_count - (SELECT count(*) FROM gone)
                WHERE channel_url = $1 AND EXISTS (SELECT 1 FROM gone)
            )
            SELECT user_id FROM gone ORDER BY user_id
            """,
            [channelURL, userIDs]
        )
        return try rows.map { try $0.decode("user_id") }
    }

    /// The condition that a participation (the row aliased `alias`) is held by nothing any more:
    /// no socket of the user open on any live instance and no REST enter still running (the
    /// database's clock), or the user deactivated.
    static func lapsedCondition(_ alias: String) -> String {
        """
        ((\(alias).held_until <= parley_now_ms() AND NOT EXISTS (SELECT 1 FROM event_sockets s WHERE s.user_id = \(alias).user_id))
            OR EXISTS (SELECT 1 FROM users u WHERE u.user_id = \(alias).user_id AND NOT u.is_active))
        """
    }

    /// The open channels the user is in (for taking them out of all of them).
    public func channels(of userID: String) throws -> [String] {
        try connection.query(
            "SELECT channel_url FROM open_channel_participants WHERE user_id = $1 ORDER BY channel_url", [userID]
        ).map { try $0.decode("channel_url") }
    }

    /// The participations nothing holds any more: no socket of the user open on any live
    /// instance, and no REST enter still running (the database's clock), or the user was
    /// deactivated; only `userIDs`' when given. Grouped by channel, in channel order (the order their rows must be locked in).
    public func lapsed(userIDs: [String]? = nil) throws -> [(channelURL: String, userIDs: [String])] {
        let rows = try connection.query(
            """
            SELECT p.channel_url, array_agg(p.user_id ORDER BY p.user_id) AS user_ids FROM open_channel_participants p
            WHERE ($1::text[] IS NULL OR p.user_id = ANY($1::text[]))
              AND \(Self.lapsedCondition("p"))
            GROUP BY p.channel_url ORDER BY p.channel_url
            """,
            [userIDs]
        )
        return try rows.map { (try $0.decode("channel_url"), try $0.decode("user_ids")) }
    }

    /// A page of participants in user_id order after `afterUserID`, with presence and mutes.
    public func list(_ channelURL: String, afterUserID: String?, limit: Int, now: Int64) throws -> [Participant] {
        try connection.query(
            """
            SELECT u.user_id, u.nickname, u.profile_url, u.is_active, u.last_seen_at, \(PresenceRepository.isOnline("u")),
                mu.user_id IS NOT NULL AS is_muted, p.entered_at
            FROM open_channel_participants p JOIN users u ON u.user_id = p.user_id
                \(ModerationRepository.join(.mute, .open, channel: "p.channel_url", user: "p.user_id", now: "$4", as: "mu"))
            WHERE p.channel_url = $1 AND ($2::text IS NULL OR p.user_id > $2::text)
            ORDER BY p.user_id LIMIT $3
            """,
            [channelURL, afterUserID, Int64(limit), now]
        ).map { row in
            let isOnline: Bool = try row.decode("is_online")
            return Participant(
                user: try UserRepository.basicUser(row), isOnline: isOnline,
                lastSeenAt: isOnline ? 0 : try row.decode("last_seen_at"), isMuted: try row.decode("is_muted"),
                enteredAt: try row.decode("entered_at")
            )
        }
    }

    /// A participant about to send: whether they are in, an operator, and muted until when.
    public func sender(_ channelURL: String, _ userID: String, now: Int64) throws -> (
        isParticipant: Bool, isOperator: Bool, user: BasicUser, mutedUntil: Int64?
    )? {
        try connection.query(
            """
            SELECT u.user_id, u.nickname, u.profile_url, u.is_active,
                EXISTS (SELECT 1 FROM open_channel_participants p WHERE p.channel_url = $1 AND p.user_id = u.user_id) AS is_participant,
                EXISTS (SELECT 1 FROM open_channel_operators o WHERE o.channel_url = $1 AND o.user_id = u.user_id) AS is_operator,
                mu.end_at AS muted_until
            FROM users u
                \(ModerationRepository.join(.mute, .open, channel: "$1", user: "u.user_id", now: "$3", as: "mu"))
            WHERE u.user_id = $2
            """,
            [channelURL, userID, now]
        ).first.map { row in
            (
                try row.decode("is_participant"), try row.decode("is_operator"), try UserRepository.basicUser(row),
                try row.decodeIfPresent("muted_until")
            )
        }
    }
}
