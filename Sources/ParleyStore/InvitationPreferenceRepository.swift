import Postgres

/// SQL for `channel_invitation_preferences`; a user without a row auto-accepts (API.md §2.4).
public struct InvitationPreferenceRepository {
    let connection: PostgresConnection

    public func autoAccept(_ userID: String) throws -> Bool {
        try connection.query("SELECT auto_accept FROM channel_invitation_preferences WHERE user_id = $1", [userID])
            .first?.decode("auto_accept") ?? true
    }

    /// The preference of each user who has set one; the others auto-accept.
    public func autoAccept(_ userIDs: [String]) throws -> [String: Bool] {
        let rows = try connection.query(
            "SELECT user_id, auto_accept FROM channel_invitation_preferences WHERE user_id = ANY($1::text[])", [userIDs]
        )
        var preferences: [String: Bool] = [:]
        for row in rows { preferences[try row.decode("user_id")] = try row.decode("auto_accept", as: Bool.self) }
        return preferences
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
