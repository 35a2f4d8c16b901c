import ParleyCore
import Postgres

/// SQL for `event_instances` and `event_sockets` (API.md §6.5): which sockets are open on which
/// running instance. Heartbeats use the database's clock, shared by every instance.
public struct PresenceRepository {
    let connection: PostgresConnection

    /// `is_online` of the user row aliased `alias`: a socket open on any running instance.
    static func isOnline(_ alias: String) -> String {
        "EXISTS (SELECT 1 FROM event_sockets s WHERE s.user_id = \(alias).user_id) AS is_online"
    }

    /// Refreshes the planner's statistics of `event_sockets` (see ParleyEvents'
    /// `PresenceStatistics`). Another instance's ANALYZE or autovacuum may hold the table's
    /// analyze lock: this one then gives up after a moment (theirs does the same job).
    public func analyze() throws {
        try connection.query("SET LOCAL lock_timeout = '2s'")
        try connection.query("ANALYZE event_sockets")
    }

    /// Registers (or re-registers) an instance and beats its heart, with how long it may stay
    /// silent before the others reap it; true when its row was new (its first beat, or the others
    /// had reaped it).
    public func beat(_ instanceID: String, deadAfterMillis: Int64) throws -> Bool {
        try connection.query(
            """
            INSERT INTO event_instances (instance_id, dead_after_ms) VALUES ($1, $2)
            ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = now(), dead_after_ms = EXCLUDED.dead_after_ms
            RETURNING (xmax = 0) AS inserted
            """,
            [instanceID, deadAfterMillis]
        )[0].decode("inserted")
    }

    /// Puts back the rows of the instance's live sockets that are missing (after a reaping).
    public func restore(_ instanceID: String, sockets: [(socketID: String, userID: String)], now: Int64) throws {
        guard !sockets.isEmpty else { return }
        try connection.query(
            """
            INSERT INTO event_sockets (socket_id, user_id, instance_id, connected_at)
            SELECT s.socket_id, s.user_id, $3, $4 FROM unnest($1::text[], $2::text[]) AS s(socket_id, user_id)
            ON CONFLICT (socket_id) DO NOTHING
            """,
            [sockets.map(\.socketID), sockets.map(\.userID), instanceID, now]
        )
    }

    /// Removes the instances silent for longer than each one said it may be (their sockets go
    /// with them) and stamps `last_seen_at` on their users who are online nowhere else. Returns
    /// those users.
    public func reapDead() throws -> [String] {
        let rows = try connection.query(
            """
            WITH dead AS (
                DELETE FROM event_instances WHERE heartbeat_at < now() - make_interval(secs => dead_after_ms / 1000.0)
                RETURNING instance_id, heartbeat_at
            ), gone AS (
                SELECT s.user_id, max(d.heartbeat_at) AS seen FROM event_sockets s JOIN dead d ON d.instance_id = s.instance_id
                GROUP BY s.user_id
            ), offline AS (
                UPDATE users u SET last_seen_at = (extract(epoch FROM g.seen) * 1000)::bigint
                FROM gone g
                WHERE u.user_id = g.user_id
                  AND NOT EXISTS (
                      SELECT 1 FROM event_sockets s WHERE s.user_id = g.user_id AND s.instance_id NOT IN (SELECT instance_id FROM dead))
                RETURNING u.user_id
            )
            SELECT user_id FROM offline
            """
        )
        return try rows.map { try $0.decode("user_id") }
    }

    /// A socket opened; returns the user's sockets beyond the newest `cap` (oldest first), which
    /// must close.
    public func connected(socketID: String, userID: String, instanceID: String, now: Int64, cap: Int) throws -> [String] {
        try connection.query(
            "INSERT INTO event_sockets (socket_id, user_id, instance_id, connected_at) VALUES ($1, $2, $3, $4)",
            [socketID, userID, instanceID, now]
        )
        let rows = try connection.query(
            """
            SELECT socket_id FROM (
                SELECT socket_id, connected_at FROM event_sockets WHERE user_id = $1
                ORDER BY connected_at DESC, socket_id DESC OFFSET $2
            ) surplus ORDER BY connected_at, socket_id
            """,
            [userID, Int64(cap)]
        )
        return try rows.map { try $0.decode("socket_id") }
    }

    /// Sockets closed; the users whose last sockets anywhere they were are last seen `now`, and
    /// returned. One statement for a batch: a thousand sockets may close at once.
    public func disconnected(socketIDs: [String], now: Int64) throws -> [String] {
        let rows = try connection.query(
            """
            WITH removed AS (DELETE FROM event_sockets WHERE socket_id = ANY($1::text[]) RETURNING user_id),
            seen AS (
                UPDATE users SET last_seen_at = $2
                WHERE user_id IN (SELECT user_id FROM removed)
                  AND NOT EXISTS (
                      SELECT 1 FROM event_sockets s WHERE s.user_id = users.user_id AND NOT (s.socket_id = ANY($1::text[])))
                RETURNING user_id
            )
            SELECT user_id FROM seen
            """,
            [socketIDs, now]
        )
        return try rows.map { try $0.decode("user_id") }
    }

    /// The instance stops: its sockets are closed, and its users who are online nowhere else
    /// were last seen `now`. Returns those users.
    public func remove(_ instanceID: String, now: Int64) throws -> [String] {
        let rows = try connection.query(
            """
            WITH gone AS (DELETE FROM event_sockets WHERE instance_id = $1 RETURNING user_id),
            seen AS (
                UPDATE users SET last_seen_at = $2 WHERE user_id IN (SELECT user_id FROM gone)
                  AND NOT EXISTS (SELECT 1 FROM event_sockets s WHERE s.user_id = users.user_id AND s.instance_id <> $1)
                RETURNING user_id
            ), instance AS (DELETE FROM event_instances WHERE instance_id = $1)
            SELECT user_id FROM seen
            """,
            [instanceID, now]
        )
        return try rows.map { try $0.decode("user_id") }
    }

    /// Removes this instance's socket rows that no live socket backs (a close whose write
    /// failed, say while the database was busy with a thousand closes at once), unless younger
    /// than `graceMillis` (a socket still connecting has its row before it is live). Their users
    /// online nowhere else were last seen `now`; returns those users.
    public func reconcile(_ instanceID: String, liveSocketIDs: [String], now: Int64, graceMillis: Int64) throws -> [String] {
        let rows = try connection.query(
            """
            WITH gone AS (
                DELETE FROM event_sockets
                WHERE instance_id = $1 AND connected_at < $3::bigint - $4::bigint AND NOT (socket_id = ANY($2::text[]))
                RETURNING socket_id, user_id
            ), seen AS (
                UPDATE users SET last_seen_at = $3 WHERE user_id IN (SELECT user_id FROM gone)
                  AND NOT EXISTS (
                      SELECT 1 FROM event_sockets s WHERE s.user_id = users.user_id AND s.socket_id NOT IN (SELECT socket_id FROM gone))
                RETURNING user_id
            )
            SELECT user_id FROM seen
            """,
            [instanceID, liveSocketIDs, now, graceMillis]
        )
        return try rows.map { try $0.decode("user_id") }
    }

    /// Whether the user has a socket open anywhere.
    public func isOnline(_ userID: String) throws -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM event_sockets WHERE user_id = $1) AS online", [userID])[0].decode("online")
    }
}
