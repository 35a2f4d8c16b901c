import Foundation
import ParleyCore
import Postgres

/// A stored session token: the secret only as its hash.
public struct StoredSessionToken: Sendable {
    public let userID: String
    public let secretHash: Data
    public let expiresAt: Int64
    public let userIsActive: Bool
    public let fileKeyGeneration: Int64
    public let revoked: Bool
}

/// SQL for `session_tokens`.
public struct SessionTokenRepository {
    let connection: PostgresConnection

    public func insert(selector: String, userID: String, secretHash: Data, expiresAt: Int64, createdAt: Int64) throws {
        try connection.query(
            "INSERT INTO session_tokens (selector, user_id, secret_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)",
            [selector, userID, secretHash, expiresAt, createdAt]
        )
    }

    /// The token with this selector, with whether its user is active; read outside a transaction.
    public static func lookup(selector: String) -> Lookup<StoredSessionToken?> {
        Lookup(
            query: Query(
                """
                SELECT t.user_id, t.secret_hash, t.expires_at, t.revoked, u.is_active, u.file_key_generation
                FROM session_tokens t JOIN users u ON u.user_id = t.user_id
                WHERE t.selector = $1
                """,
                [selector]
            ) { result in
                try result.first.map { row in
                    StoredSessionToken(
                        userID: try row.decode("user_id"),
                        secretHash: try row.decode("secret_hash"),
                        expiresAt: try row.decode("expires_at"),
                        userIsActive: try row.decode("is_active"),
                        fileKeyGeneration: try row.decode("file_key_generation"),
                        revoked: try row.decode("revoked")
                    )
                }
            })
    }

    /// Revokes every token of the user; returns how many there were.
    @discardableResult
    public func deleteAll(userID: String) throws -> Int {
        try connection.query("DELETE FROM session_tokens WHERE user_id = $1", [userID]).affectedRows
    }

    /// Revokes every token of the user but keeps the rows until they expire (deactivation).
    public func revokeAll(userID: String) throws {
        try connection.query("UPDATE session_tokens SET revoked = true WHERE user_id = $1", [userID])
    }

    /// Drops the user's expired tokens, so that a user's rows stay few.
    public func deleteExpired(userID: String, now: Int64) throws {
        try connection.query("DELETE FROM session_tokens WHERE user_id = $1 AND expires_at <= $2", [userID, now])
    }
}
