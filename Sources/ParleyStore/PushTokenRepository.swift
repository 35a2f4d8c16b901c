import ParleyCore
import Postgres

/// Device tokens (`push_tokens`, migration 0022).
public struct PushTokenRepository {
    let connection: PostgresConnection

    /// Registers `token` for `userID`, taking it from any other owner, and drops the user's
    /// oldest tokens of its type beyond `keep`; false (nothing changed) when another user holds
    /// the token with other Web Push keys (`PushTokenService.register`'s rule: in the statement,
    /// so that two registrations at once cannot pass it both).
    public func register(_ token: PushToken, userID: String, keep: Int, now: Int64) throws -> Bool {
        try connection.query(
            """
            -- The insert runs whether or not the statement reads it; the delete's snapshot does
            -- not see the new row, which it spares by name.
            WITH registered AS (
                INSERT INTO push_tokens (token_type, token, user_id, web_p256dh, web_auth, created_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (token_type, token) DO UPDATE
                    SET user_id = EXCLUDED.user_id, web_p256dh = EXCLUDED.web_p256dh, web_auth = EXCLUDED.web_auth,
                        created_at = EXCLUDED.created_at
                    WHERE push_tokens.user_id = EXCLUDED.user_id
                        OR (push_tokens.web_p256dh IS NOT DISTINCT FROM EXCLUDED.web_p256dh
                            AND push_tokens.web_auth IS NOT DISTINCT FROM EXCLUDED.web_auth)
                RETURNING 1
            ), dropped AS (
                DELETE FROM push_tokens p
                WHERE EXISTS (SELECT 1 FROM registered) AND p.user_id = $3 AND p.token_type = $1 AND p.token <> $2
                    AND p.token NOT IN (
                        SELECT token FROM push_tokens WHERE user_id = $3 AND token_type = $1 AND token <> $2
                        ORDER BY created_at DESC, token DESC LIMIT $7)
            )
            SELECT count(*) AS registered FROM registered
            """,
            [token.type.rawValue, token.token, userID, token.webKeys?.p256dh, token.webKeys?.auth, now, Int64(keep - 1)]
        ).first.map { try $0.decode("registered") as Int64 } == 1
    }

    /// A page of the user's tokens of `type`, newest first, after `after` (created_at, token).
    public func tokens(of userID: String, type: PushTokenType, after: (createdAt: Int64, token: String)?, limit: Int) throws -> [(
        token: String, createdAt: Int64
    )] {
        try connection.query(
            """
            SELECT token, created_at FROM push_tokens
            WHERE user_id = $1 AND token_type = $2 AND ($3::bigint IS NULL OR (created_at, token) < ($3::bigint, $4::text))
            ORDER BY created_at DESC, token DESC LIMIT $5
            """,
            [userID, type.rawValue, after?.createdAt, after?.token, limit]
        ).map { (try $0.decode("token"), try $0.decode("created_at")) }
    }

    /// Removes one token of the user; true when there was one.
    public func remove(_ type: PushTokenType, _ token: String, userID: String) throws -> Bool {
        try connection.query(
            "DELETE FROM push_tokens WHERE token_type = $1 AND token = $2 AND user_id = $3", [type.rawValue, token, userID]
        )
        .affectedRows == 1
    }

    /// Removes every token of the user; returns them.
    public func removeAll(userID: String) throws -> [String] {
        try connection.query("DELETE FROM push_tokens WHERE user_id = $1 RETURNING token", [userID]).map { try $0.decode("token") }
    }

    /// Who has this token, if anyone.
    public func owner(_ type: PushTokenType, _ token: String) throws -> String? {
        try connection.query("SELECT user_id FROM push_tokens WHERE token_type = $1 AND token = $2", [type.rawValue, token])
            .first.map { try $0.decode("user_id") }
    }

    /// Removes the token from whoever has it; returns who that was.
    public func removeFromOwner(_ type: PushTokenType, _ token: String) throws -> String? {
        try connection.query("DELETE FROM push_tokens WHERE token_type = $1 AND token = $2 RETURNING user_id", [type.rawValue, token])
            .first.map { try $0.decode("user_id") }
    }
}
