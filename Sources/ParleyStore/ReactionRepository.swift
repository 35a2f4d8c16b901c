import ParleyCore
import Postgres

/// SQL for `message_reactions`.
public struct ReactionRepository {
    let connection: PostgresConnection

    /// Adds the user's reaction (again is harmless); returns when it was recorded. The message
    /// counts as changed for the changelogs (API.md §6.6).
    public func add(_ messageID: Int64, reaction: String, userID: String, now: Int64) throws -> Int64 {
        try connection.query(
            """
            WITH added AS (
                INSERT INTO message_reactions (message_id, reaction, user_id, updated_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (message_id, reaction, user_id) DO UPDATE SET updated_at = message_reactions.updated_at
                RETURNING updated_at
            ), touched AS (
                UPDATE messages SET changed_at = GREATEST(changed_at, $4) WHERE message_id = $1
            )
            SELECT updated_at FROM added
            """,
            [messageID, reaction, userID, now]
        )[0].decode("updated_at")
    }

    /// What adding `reaction` by `userID` would take: how many distinct keys the message has, how
    /// many of them are the user's, and whether the key and the user's reaction exist already.
    public func standing(_ messageID: Int64, reaction: String, userID: String) throws -> ReactionStanding {
        let row = try connection.query(
            """
            SELECT count(DISTINCT reaction) AS keys, count(*) FILTER (WHERE user_id = $3) AS own,
                bool_or(reaction = $2) AS key_exists, bool_or(reaction = $2 AND user_id = $3) AS own_exists
            FROM message_reactions WHERE message_id = $1
            """,
            [messageID, reaction, userID]
        )[0]
        return ReactionStanding(
            keys: try row.decode("keys"), ownKeys: try row.decode("own"),
            keyExists: try row.decodeIfPresent("key_exists") ?? false, ownExists: try row.decodeIfPresent("own_exists") ?? false)
    }

    /// Removes the user's reaction; false when there was none.
    public func remove(_ messageID: Int64, reaction: String, userID: String, now: Int64) throws -> Bool {
        try connection.query(
            """
            WITH removed AS (
                DELETE FROM message_reactions WHERE message_id = $1 AND reaction = $2 AND user_id = $3 RETURNING 1
            ), touched AS (
                UPDATE messages SET changed_at = GREATEST(changed_at, $4) WHERE message_id = $1 AND EXISTS (SELECT 1 FROM removed)
            )
            SELECT count(*) AS removed FROM removed
            """,
            [messageID, reaction, userID, now]
        )[0].decode("removed", as: Int64.self) == 1
    }

    /// The reactions of these messages: per message, each reaction key with its users in the order they reacted.
    public func reactions(_ messageIDs: [Int64]) throws -> [Int64: [Reaction]] {
        guard !messageIDs.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            SELECT message_id, reaction, array_agg(user_id ORDER BY updated_at, user_id) AS user_ids, max(updated_at) AS updated_at
            FROM message_reactions WHERE message_id = ANY($1::bigint[])
            GROUP BY message_id, reaction ORDER BY message_id, min(updated_at), reaction
            """,
            [messageIDs.map(String.init)]
        )
        var reactions: [Int64: [Reaction]] = [:]
        for row in rows {
            reactions[try row.decode("message_id"), default: []].append(
                Reaction(
                    key: try row.decode("reaction"), userIDs: try row.decode("user_ids"), updatedAt: try row.decode("updated_at")
                ))
        }
        return reactions
    }
}
