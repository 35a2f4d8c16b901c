import Postgres

/// SQL for `channel_invitation_preferences`; a user without a row auto-accepts (API.md §2.4).
public struct InvitationPreferenceRepository {
    let connection: PostgresConnection

    public func autoAccept(_ userID: String) throws -> Bool {
        try connection.query("SELECT auto_accept FROM channel_invitation_preferences WHERE user_id = $1", [userID])
            .first?.decode("auto_accept") ?? true
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
