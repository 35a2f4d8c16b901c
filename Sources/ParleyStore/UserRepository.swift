import ParleyCore
import Postgres

/// SQL for the `users` table.
public struct UserRepository {
    let connection: PostgresConnection

    /// The user columns plus their metadata as one JSON object.
    static let columns = """
        u.user_id, u.nickname, u.profile_url, u.is_active, u.last_seen_at, u.created_at, \(PresenceRepository.isOnline("u")),
        COALESCE((SELECT json_object_agg(m.key, m.value) FROM user_metadata m WHERE m.user_id = u.user_id), '{}') AS metadata
        """

    /// Inserts the user's row (not their metadata); 409/400202 when the id is taken.
    public func insert(_ user: User) throws {
        do {
            try connection.query(
                "INSERT INTO users (user_id, nickname, profile_url, is_active, created_at) VALUES ($1, $2, $3, $4, $5)",
                [user.userID, user.nickname, user.profileURL, user.isActive, user.createdAt]
            )
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ParleyError.alreadyExists("User \"\(user.userID)\" already exists.")
        }
    }

    /// Inserts the user unless the id is taken (a concurrent create may have made them).
    public func insertIfAbsent(_ user: User) throws {
        try connection.query(
            """
            INSERT INTO users (user_id, nickname, profile_url, is_active, created_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (user_id) DO NOTHING
            """,
            [user.userID, user.nickname, user.profileURL, user.isActive, user.createdAt]
        )
    }

    public func find(_ userID: String) throws -> User? {
        try connection.run(Self.findQuery(userID))
    }

    /// The user, read outside a transaction.
    public static func lookup(_ userID: String) -> Lookup<User?> {
        Lookup(query: findQuery(userID))
    }

    private static func findQuery(_ userID: String) -> Query<User?> {
        Query(findSQL, [userID]) { try $0.first.map(user) }
    }

    /// Built once: the lookup runs on every user read.
    private static let findSQL = "SELECT \(columns) FROM users u WHERE u.user_id = $1"

    /// Finds the user and locks their row until the transaction ends, serialising changes to
    /// them. `FOR NO KEY UPDATE` leaves foreign-key checks of rows that reference the user (a
    /// member row being inserted) unblocked.
    public func findForUpdate(_ userID: String) throws -> User? {
        try connection.query("SELECT \(Self.columns) FROM users u WHERE u.user_id = $1 FOR NO KEY UPDATE", [userID]).first.map(Self.user)
    }

    /// Up to `limit` users after `afterUserID` in user_id order, matching `filter`.
    public func list(_ filter: UserFilter, after afterUserID: String?, limit: Int) throws -> [User] {
        var sql = SQLBuilder()
        if let afterUserID { sql.where("u.user_id > \(sql.bind(afterUserID))") }
        if let ids = filter.userIDs { sql.where("u.user_id = ANY(\(sql.bind(ids))::text[])") }
        if let prefix = filter.nicknameStartsWith { sql.where("starts_with(u.nickname, \(sql.bind(prefix)))") }
        switch filter.activeMode {
        case .activated: sql.where("u.is_active")
        case .deactivated: sql.where("NOT u.is_active")
        case .all: break
        }
        let statement = "SELECT \(Self.columns) FROM users u \(sql.whereClause) ORDER BY u.user_id LIMIT \(sql.bind(limit))"
        return try connection.query(statement, sql.parameters).map(Self.user)
    }

    public func update(_ userID: String, _ update: UserUpdate) throws {
        try connection.query(
            """
            UPDATE users SET nickname = COALESCE($2, nickname), profile_url = COALESCE($3, profile_url),
                is_active = COALESCE($4, is_active)
            WHERE user_id = $1
            """,
            [userID, update.nickname, update.profileURL, update.isActive]
        )
    }

    /// Deletes the user; metadata, tokens and preferences go with it (ON DELETE CASCADE).
    public func delete(_ userID: String) throws -> Bool {
        try connection.query("DELETE FROM users WHERE user_id = $1", [userID]).affectedRows == 1
    }

    /// Users by id as embedded in other resources, in the order asked, skipping unknown ids.
    public func basicUsers(_ userIDs: [String]) throws -> [BasicUser] {
        guard !userIDs.isEmpty else { return [] }
        let rows = try connection.query(
            "SELECT user_id, nickname, profile_url, is_active FROM users WHERE user_id = ANY($1::text[])", [userIDs]
        )
        let byID = Dictionary(try rows.map(Self.basicUser).map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
        return userIDs.compactMap { byID[$0] }
    }

    /// A user as embedded elsewhere, from a row with `user_id`, `nickname`, `profile_url` and
    /// `is_active` columns.
    static func basicUser(_ row: PostgresRow) throws -> BasicUser {
        BasicUser(
            userID: try row.decode("user_id"), nickname: try row.decode("nickname"),
            profileURL: try row.decode("profile_url"), isActive: try row.decode("is_active")
        )
    }

    /// A channel's creator from the `created_by` and `creator_*` columns of a channel read (nil
    /// when there is none, or the user is gone).
    static func creator(_ row: PostgresRow) throws -> BasicUser? {
        try row.decodeIfPresent("creator_nickname", as: String.self).map { nickname in
            BasicUser(
                userID: try row.decode("created_by"), nickname: nickname,
                profileURL: try row.decode("creator_profile_url"), isActive: try row.decode("creator_is_active"))
        }
    }

    static func user(_ row: PostgresRow) throws -> User {
        let metadata = try JSONStringMap.parse(try row.decode("metadata"))
        return User(
            userID: try row.decode("user_id"),
            nickname: try row.decode("nickname"),
            profileURL: try row.decode("profile_url"),
            isActive: try row.decode("is_active"),
            isOnline: try row.decode("is_online"),
            lastSeenAt: try row.decode("last_seen_at"),
            createdAt: try row.decode("created_at"),
            metadata: metadata
        )
    }
}
