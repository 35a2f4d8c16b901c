import ParleyCore
import Postgres

/// What the rules need of an open channel's row.
public struct OpenChannelRecord: Sendable {
    public let channelURL: String
    public let isEphemeral: Bool
    public let freeze: Bool
    public let participantCount: Int
    public let customType: String
}

/// SQL for `open_channels` and their operators (API.md §8.1, §8.2).
public struct OpenChannelRepository {
    let connection: PostgresConnection

    /// Inserts the channel; 409/400202 when the URL is taken by a channel of either kind.
    public func insert(_ new: NewOpenChannel, channelURL: String, createdBy: String?, now: Int64) throws {
        do {
            try connection.query(
                """
                INSERT INTO open_channels (channel_url, name, cover_url, custom_type, data, is_ephemeral, created_at, created_by)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [channelURL, new.name, new.coverURL, new.customType, new.data, new.isEphemeral, now, createdBy]
            )
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ParleyError.alreadyExists("Channel \"\(channelURL)\" already exists.")
        }
    }

    /// The channel's row, locked until the transaction ends when `forUpdate` (the lock a send,
    /// an enter and a moderation action take first, as for group channels).
    public func find(_ channelURL: String, forUpdate: Bool = false) throws -> OpenChannelRecord? {
        try connection.query(
            """
            SELECT channel_url, is_ephemeral, is_frozen, participant_count, custom_type FROM open_channels WHERE channel_url = $1
            \(forUpdate ? "FOR NO KEY UPDATE" : "")
            """,
            [channelURL]
        ).first.map { row in
            OpenChannelRecord(
                channelURL: try row.decode("channel_url"), isEphemeral: try row.decode("is_ephemeral"),
                freeze: try row.decode("is_frozen"), participantCount: try row.decode("participant_count"),
                customType: try row.decode("custom_type")
            )
        }
    }

    /// Sets the channel's own retention (API.md §14.3; 0: off).
    public func setRetention(_ channelURL: String, hours: Int) throws {
        try connection.query("UPDATE open_channels SET message_retention_hours = $2 WHERE channel_url = $1", [channelURL, Int64(hours)])
    }

    /// The channels with these URLs (unknown ones absent), with their creators and operators.
    public func channels(_ channelURLs: [String]) throws -> [String: OpenChannel] {
        guard !channelURLs.isEmpty else { return [:] }
        let rows = try connection.query(
            "SELECT \(Self.columns) FROM \(Self.from) WHERE c.channel_url = ANY($1::text[])", [channelURLs]
        )
        return try decode(rows)
    }

    /// A page of the list, newest first, after the (created_at, channel_url) position given.
    public func list(_ filter: OpenChannelFilter, after: (createdAt: Int64, channelURL: String)?, limit: Int) throws -> [OpenChannel] {
        var sql = SQLBuilder()
        // strpos on lower(): a case-insensitive substring with no LIKE wildcards to escape.
        if let name = filter.nameContains { sql.where("strpos(lower(c.name), lower(\(sql.bind(name)))) > 0") }
        if let url = filter.urlContains { sql.where("strpos(lower(c.channel_url), lower(\(sql.bind(url)))) > 0") }
        if let types = filter.customTypes { sql.where("c.custom_type = ANY(\(sql.bind(types))::text[])") }
        if !filter.showFrozen { sql.where("NOT c.is_frozen") }
        if let after {
            sql.where("(c.created_at, c.channel_url) < (\(sql.bind(after.createdAt))::bigint, \(sql.bind(after.channelURL))::text)")
        }
        let rows = try connection.query(
            """
            SELECT \(Self.columns) FROM \(Self.from) \(sql.whereClause)
            ORDER BY c.created_at DESC, c.channel_url DESC LIMIT \(sql.bind(limit))
            """,
            sql.parameters
        )
        let channels = try decode(rows)
        return try rows.map { channels[try $0.decode("channel_url")]! }
    }

    public func update(_ channelURL: String, _ update: OpenChannelUpdate) throws {
        try connection.query(
            """
            UPDATE open_channels SET name = COALESCE($2, name), cover_url = COALESCE($3, cover_url),
                custom_type = COALESCE($4, custom_type), data = COALESCE($5, data)
            WHERE channel_url = $1
            """,
            [channelURL, update.name, update.coverURL, update.customType, update.data]
        )
    }

    public func setFreeze(_ channelURL: String, _ freeze: Bool) throws {
        try connection.query("UPDATE open_channels SET is_frozen = $2 WHERE channel_url = $1", [channelURL, freeze])
    }

    /// Deletes the channel; its participants, operators, metadata, messages and file rows go
    /// with it (foreign keys of migration 0013).
    public func delete(_ channelURL: String) throws {
        try connection.query("DELETE FROM open_channels WHERE channel_url = $1", [channelURL])
    }

    public func isOperator(_ channelURL: String, _ userID: String) throws -> Bool {
        try connection.query(
            "SELECT EXISTS (SELECT 1 FROM open_channel_operators WHERE channel_url = $1 AND user_id = $2) AS yes", [channelURL, userID]
        )[0].decode("yes")
    }

    public func operators(_ channelURL: String) throws -> [BasicUser] {
        try connection.query(
            """
            SELECT u.user_id, u.nickname, u.profile_url, u.is_active
            FROM open_channel_operators o JOIN users u ON u.user_id = o.user_id WHERE o.channel_url = $1 ORDER BY u.user_id
            """,
            [channelURL]
        ).map(UserRepository.basicUser)
    }

    /// Adds operators (the service has checked that they are users).
    public func addOperators(_ channelURL: String, _ userIDs: [String]) throws {
        try connection.query(
            """
            INSERT INTO open_channel_operators (channel_url, user_id) SELECT $1, unnest($2::text[])
            ON CONFLICT DO NOTHING
            """,
            [channelURL, userIDs]
        )
    }

    public func removeOperators(_ channelURL: String, _ userIDs: [String]) throws {
        try connection.query(
            "DELETE FROM open_channel_operators WHERE channel_url = $1 AND user_id = ANY($2::text[])", [channelURL, userIDs]
        )
    }

    public func replaceOperators(_ channelURL: String, _ userIDs: [String]) throws {
        try connection.query(
            "DELETE FROM open_channel_operators WHERE channel_url = $1 AND NOT (user_id = ANY($2::text[]))", [channelURL, userIDs]
        )
        try addOperators(channelURL, userIDs)
    }

    private static let columns = """
        c.channel_url, c.name, c.cover_url, c.custom_type, c.data, c.is_ephemeral, c.is_frozen, c.participant_count,
        c.created_at, c.created_by, c.pinned_message_ids::text[] AS pinned_message_ids, cu.nickname AS creator_nickname, cu.profile_url AS creator_profile_url,
        cu.is_active AS creator_is_active, c.message_retention_hours
        """
    private static let from = "open_channels c LEFT JOIN users cu ON cu.user_id = c.created_by"

    /// The rows as channels, with their operators (one more query for the whole page).
    private func decode(_ rows: PostgresResult) throws -> [String: OpenChannel] {
        var channels: [String: OpenChannel] = [:]
        for row in rows {
            let url: String = try row.decode("channel_url")
            let creator = try UserRepository.creator(row)
            channels[url] = OpenChannel(
                channelURL: url, name: try row.decode("name"), coverURL: try row.decode("cover_url"),
                customType: try row.decode("custom_type"), data: try row.decode("data"), isEphemeral: try row.decode("is_ephemeral"),
                freeze: try row.decode("is_frozen"), participantCount: try row.decode("participant_count"),
                createdAt: try row.decode("created_at"), createdBy: creator, operators: []
            )
            channels[url]?.pinnedMessageIDs = try row.decode("pinned_message_ids", as: [String].self).compactMap { Int64($0) }
            let retention: Int = try row.decode("message_retention_hours")
            channels[url]?.messageRetentionHours = retention > 0 ? retention : nil
        }
        guard !channels.isEmpty else { return channels }
        let operators = try connection.query(
            """
            SELECT o.channel_url, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM open_channel_operators o JOIN users u ON u.user_id = o.user_id
            WHERE o.channel_url = ANY($1::text[]) ORDER BY o.channel_url, u.user_id
            """,
            [Array(channels.keys)]
        )
        for row in operators { channels[try row.decode("channel_url")]?.operators.append(try UserRepository.basicUser(row)) }
        return channels
    }
}
