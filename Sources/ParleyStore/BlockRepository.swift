import ParleyCore
import Postgres

/// Who blocks whom (`user_blocks`, migration 0010). What a block hides is decided where messages
/// are written and read (`MessageRepository`, `MessageRows`); this is the list itself.
public struct BlockRepository {
    let connection: PostgresConnection

    /// `blockerID` blocks each of `blockedIDs` (existing users; blocking again changes nothing).
    public func block(_ blockerID: String, _ blockedIDs: [String], now: Int64) throws {
        try connection.query(
            """
            INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
            SELECT $1, blocked, $3 FROM unnest($2::text[]) AS blocked
            ON CONFLICT DO NOTHING
            """,
            [blockerID, blockedIDs, now]
        )
    }

    /// True when there was a block to lift.
    public func unblock(_ blockerID: String, _ blockedID: String) throws -> Bool {
        try connection.query("DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2", [blockerID, blockedID])
            .affectedRows == 1
    }

    /// A page of the users `blockerID` blocks, by user id after `afterUserID`, only those among
    /// `among` when given.
    public func blocked(by blockerID: String, among: [String]?, afterUserID: String?, limit: Int) throws -> [BasicUser] {
        try connection.query(
            """
            SELECT u.user_id, u.nickname, u.profile_url, u.is_active
            FROM user_blocks b JOIN users u ON u.user_id = b.blocked_id
            WHERE b.blocker_id = $1 AND ($2::text[] IS NULL OR b.blocked_id = ANY($2::text[]))
                AND ($3::text IS NULL OR b.blocked_id > $3::text)
            ORDER BY b.blocked_id LIMIT $4
            """,
            [blockerID, among, afterUserID, limit]
        ).map(UserRepository.basicUser)
    }

    /// For each of `blockedIDs` that someone blocks, who blocks them (the event hub marks the
    /// senders its recipients block).
    public func blockers(of blockedIDs: [String]) throws -> [String: Set<String>] {
        guard !blockedIDs.isEmpty else { return [:] }
        var blockers: [String: Set<String>] = [:]
        for row in try connection.query(
            "SELECT blocked_id, blocker_id FROM user_blocks WHERE blocked_id = ANY($1::text[])", [blockedIDs]
        ) {
            blockers[try row.decode("blocked_id"), default: []].insert(try row.decode("blocker_id"))
        }
        return blockers
    }
}
