import Postgres

/// SQL for `channel_invitation_preferences`; a user without a row follows the application's
/// default (API.md §2.4, §14.7: `application_settings.default_auto_accept`, true unless changed).
public struct InvitationPreferenceRepository {
    let connection: PostgresConnection

    public func autoAccept(_ userID: String) throws -> Bool {
        try autoAccept([userID])[userID] ?? true
    }

    /// Each user's preference, theirs or the application's default.
    public func autoAccept(_ userIDs: [String]) throws -> [String: Bool] {
        let rows = try connection.query(
            """
            SELECT x.user_id, COALESCE(p.auto_accept, s.default_auto_accept) AS auto_accept
            FROM unnest($1::text[]) AS x(user_id) CROSS JOIN application_settings s
            LEFT JOIN channel_invitation_preferences p ON p.user_id = x.user_id
            """,
            [userIDs]
        )
        var preferences: [String: Bool] = [:]
        for row in rows { preferences[try row.decode("user_id")] = try row.decode("auto_accept", as: Bool.self) }
        return preferences
    }

    /// The application's default for users who have not set theirs.
    public func defaultAutoAccept() throws -> Bool {
        try connection.query("SELECT default_auto_accept FROM application_settings")[0].decode("default_auto_accept")
    }

    public func setDefaultAutoAccept(_ autoAccept: Bool) throws {
        try connection.query("UPDATE application_settings SET default_auto_accept = $1", [autoAccept])
    }

    public func setAutoAccept(_ userID: String, _ autoAccept: Bool) throws {
        try connection.query(
            """
            INSERT INTO channel_invitation_preferences (user_id, auto_accept) VALUES ($1, $2)
            ON CONFLICT (user_id) DO UPDATE SET auto_accept = EXCLUDED.auto_accept
            """,
            [userID, autoAccept]
        )
    }
}
