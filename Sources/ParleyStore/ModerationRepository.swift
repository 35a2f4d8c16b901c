import ParleyCore
import Postgres

/// Bans and mutes (`channel_bans`, `channel_mutes`, migration 0009): one table each, the same
/// shape, for both channel kinds. Rows whose `end_at` has passed are ignored by every read.
public struct ModerationRepository {
    let connection: PostgresConnection
    let kind: RestrictionKind

    private var table: String { kind == .ban ? "channel_bans" : "channel_mutes" }

    /// A `LEFT JOIN LATERAL` of the ban or mute in force at `now` of `user` in `channel` (SQL
    /// expressions of the statement, such as `m.user_id`), as `alias` with `user_id` and
    /// `end_at`: the channel's own, else one of its custom type's (API.md §14.7); no row when
    /// none. Index probes per row, so that a member list or a send reads only what it joins.
    static func join(_ restriction: RestrictionKind, _ kind: ChannelKind, channel: String, user: String, now: String, as alias: String)
        -> String
    {
        """
        LEFT JOIN LATERAL (
            SELECT x.user_id, x.end_at FROM \(restriction == .ban ? "channel_bans" : "channel_mutes") x
            WHERE x.channel_type = '\(kind.rawValue)' AND x.channel_url = \(channel) AND x.user_id = \(user)
                AND (x.end_at = -1 OR x.end_at > \(now))
            UNION ALL
            SELECT r.user_id, r.end_at FROM custom_type_restrictions r JOIN \(channelTable(kind)) c ON c.custom_type = r.custom_type
            WHERE c.channel_url = \(channel) AND r.kind = '\(restriction.rawValue)' AND r.user_id = \(user)
                AND (r.end_at = -1 OR r.end_at > \(now))
            LIMIT 1
        ) \(alias) ON true
        """
    }

    static func channelTable(_ kind: ChannelKind) -> String { kind == .group ? "group_channels" : "open_channels" }

    /// The rows in force at `$4` of the channel `$2` (kind `$1`) among users `$3`: its own and its
    /// custom type's, as `(start_at, end_at, description, user_id)`.
    private func inForce(_ channelKind: ChannelKind) -> String {
        """
        SELECT start_at, end_at, description, user_id FROM \(table)
        WHERE channel_type = $1 AND channel_url = $2 AND user_id = ANY($3::text[]) AND (end_at = -1 OR end_at > $4)
        UNION ALL
        SELECT r.start_at, r.end_at, r.description, r.user_id FROM custom_type_restrictions r
            JOIN \(Self.channelTable(channelKind)) c ON c.custom_type = r.custom_type
        WHERE c.channel_url = $2 AND r.kind = '\(kind.rawValue)' AND r.user_id = ANY($3::text[]) AND (r.end_at = -1 OR r.end_at > $4)
        """
    }

    /// Imposes (or replaces) the restriction; returns it with the user's profile.
    public func impose(
        _ channelKind: ChannelKind, _ channelURL: String, _ new: NewRestriction, agentID: String?, now: Int64
    ) throws -> Restriction? {
        try connection.query(
            """
            WITH imposed AS (
                INSERT INTO \(table) (channel_type, channel_url, user_id, start_at, end_at, description, agent_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (channel_type, channel_url, user_id) DO UPDATE
                    SET start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, description = EXCLUDED.description,
                        agent_id = EXCLUDED.agent_id
                RETURNING user_id, start_at, end_at, description
            )
            SELECT i.start_at, i.end_at, i.description, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM imposed i JOIN users u ON u.user_id = i.user_id
            """,
            [channelKind.rawValue, channelURL, new.userID, now, new.endAt(from: now), new.description, agentID]
        ).first.map(Self.restriction)
    }

    /// Changes the end and description of one in force; nil when there is none.
    public func update(
        _ channelKind: ChannelKind, _ channelURL: String, _ userID: String, endAt: Int64, description: String?, now: Int64
    ) throws -> Restriction? {
        try connection.query(
            """
            WITH changed AS (
                UPDATE \(table) SET end_at = $4, description = COALESCE($5, description)
                WHERE channel_type = $1 AND channel_url = $2 AND user_id = $3 AND (end_at = -1 OR end_at > $6)
                RETURNING user_id, start_at, end_at, description
            )
            SELECT c.start_at, c.end_at, c.description, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM changed c JOIN users u ON u.user_id = c.user_id
            """,
            [channelKind.rawValue, channelURL, userID, endAt, description, now]
        ).first.map(Self.restriction)
    }

    /// Lifts it; true when one was in force.
    public func lift(_ channelKind: ChannelKind, _ channelURL: String, _ userID: String, now: Int64) throws -> Bool {
        try !connection.query(
            """
            DELETE FROM \(table) WHERE channel_type = $1 AND channel_url = $2 AND user_id = $3
            RETURNING (end_at = -1 OR end_at > $4) AS was_in_force
            """,
            [channelKind.rawValue, channelURL, userID, now]
        ).filter { try $0.decode("was_in_force") as Bool }.isEmpty
    }

    /// The one in force for this user, if any.
    /// The ban or mute in force: the channel's own, else its custom type's.
    public func find(_ channelKind: ChannelKind, _ channelURL: String, _ userID: String, now: Int64) throws -> Restriction? {
        try connection.query(
            """
            SELECT r.start_at, r.end_at, r.description, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM (\(inForce(channelKind))) r JOIN users u ON u.user_id = r.user_id LIMIT 1
            """,
            [channelKind.rawValue, channelURL, [userID], now]
        ).first.map(Self.restriction)
    }

    /// Of these users, those with one in force (the channel's own or its custom type's).
    public func restricted(_ channelKind: ChannelKind, _ channelURL: String, among userIDs: [String], now: Int64) throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        return Set(
            try connection.query("SELECT user_id FROM (\(inForce(channelKind))) r", [channelKind.rawValue, channelURL, userIDs, now])
                .map { try $0.decode("user_id") as String })
    }

    /// A page of the channel's list in user id order, after `afterUserID`.
    public func list(_ channelKind: ChannelKind, _ channelURL: String, afterUserID: String?, limit: Int, now: Int64) throws -> [Restriction]
    {
        try connection.query(
            """
            SELECT r.start_at, r.end_at, r.description, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM \(table) r JOIN users u ON u.user_id = r.user_id
            WHERE r.channel_type = $1 AND r.channel_url = $2 AND (r.end_at = -1 OR r.end_at > $3) AND r.user_id > $4
            ORDER BY r.user_id LIMIT $5
            """,
            [channelKind.rawValue, channelURL, now, afterUserID ?? "", limit]
        ).map(Self.restriction)
    }

    public func count(_ channelKind: ChannelKind, _ channelURL: String, now: Int64) throws -> Int {
        Int(
            try connection.query(
                "SELECT count(*) AS n FROM \(table) WHERE channel_type = $1 AND channel_url = $2 AND (end_at = -1 OR end_at > $3)",
                [channelKind.rawValue, channelURL, now]
            )[0].decode("n") as Int64)
    }

    /// A page of the user's channels with one in force, in (kind, URL) order after `after`.
    public func channels(of userID: String, after: (kind: String, url: String)?, limit: Int, now: Int64) throws -> [(
        kind: ChannelKind, channelURL: String, startAt: Int64, endAt: Int64, description: String
    )] {
        try connection.query(
            """
            SELECT channel_type, channel_url, start_at, end_at, description FROM \(table)
            WHERE user_id = $1 AND (end_at = -1 OR end_at > $2) AND (channel_type, channel_url) > ($3, $4)
            ORDER BY channel_type, channel_url LIMIT $5
            """,
            [userID, now, after?.kind ?? "", after?.url ?? "", limit]
        ).map { row in
            (
                ChannelKind(rawValue: try row.decode("channel_type")) ?? .group, try row.decode("channel_url"), try row.decode("start_at"),
                try row.decode("end_at"), try row.decode("description")
            )
        }
    }

    private static func restriction(_ row: PostgresRow) throws -> Restriction {
        Restriction(
            user: try UserRepository.basicUser(row), startAt: try row.decode("start_at"), endAt: try row.decode("end_at"),
            description: try row.decode("description")
        )
    }
}

/// The audit log (`audit_logs`, migration 0009): appended in the action's transaction, read by
/// the admin, never changed.
public struct AuditLogRepository {
    let connection: PostgresConnection

    /// Timed by the database's clock, as the log is read across instances.
    public func append(_ entry: NewAuditEntry) throws {
        try connection.query(
            """
            INSERT INTO audit_logs (action, actor_id, target_user_id, channel_type, channel_url, message_id, details, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, parley_now_ms())
            """,
            [
                entry.action.rawValue, entry.actorID, entry.targetUserID, entry.channelKind?.rawValue, entry.channelURL, entry.messageID,
                try JSONColumn.text(entry.details)
            ]
        )
    }

    /// A page, newest first, of the entries before `beforeID`.
    public func list(_ filter: AuditFilter, beforeID: Int64?, limit: Int) throws -> [AuditEntry] {
        var sql = SQLBuilder()
        if let action = filter.action { sql.where("action = \(sql.bind(action.rawValue))") }
        if let actorID = filter.actorID {
            // "admin" names the admin's own actions.
            sql.where(actorID == "admin" ? "actor_id IS NULL" : "actor_id = \(sql.bind(actorID))")
        }
        if let target = filter.targetUserID { sql.where("target_user_id = \(sql.bind(target))") }
        if let channelURL = filter.channelURL { sql.where("channel_url = \(sql.bind(channelURL))") }
        if let start = filter.startTS { sql.where("created_at >= \(sql.bind(start))") }
        if let end = filter.endTS { sql.where("created_at < \(sql.bind(end))") }
        if let beforeID { sql.where("audit_id < \(sql.bind(beforeID))") }
        let rows = try connection.query(
            """
            SELECT audit_id, action, actor_id, target_user_id, channel_type, channel_url, message_id, details, created_at
            FROM audit_logs \(sql.whereClause) ORDER BY audit_id DESC LIMIT \(sql.bind(limit))
            """,
            sql.parameters
        )
        return try rows.map { row in
            AuditEntry(
                auditID: try row.decode("audit_id"), action: AuditAction(rawValue: try row.decode("action")) ?? .ban,
                actorID: try row.decodeIfPresent("actor_id"), targetUserID: try row.decodeIfPresent("target_user_id"),
                channelKind: try row.decodeIfPresent("channel_type", as: String.self).flatMap(ChannelKind.init(rawValue:)),
                channelURL: try row.decodeIfPresent("channel_url"), messageID: try row.decodeIfPresent("message_id"),
                details: try JSONColumn.value(try row.decode("details")), createdAt: try row.decode("created_at")
            )
        }
    }
}
