import Postgres

/// Requests counted per client address (`address_limits`, migration 0048) by the generic cell
/// rate algorithm, in the database so that every instance enforces one limit.
public struct AddressLimitRepository {
    let connection: PostgresConnection

    /// Counts a request of `kind` from `address` at `now` when it fits: each request moves the
    /// address's theoretical arrival time `interval` ms on (from now at the latest), and one that
    /// would move it more than `burst` ms past now is refused and counts nothing. Returns whether
    /// it was admitted, and the ms until the next one would be (0: at once). The row's lock
    /// orders concurrent counts.
    public func admit(
        _ kind: String, _ address: String, now: Int64, interval: Int64, burst: Int64
    ) throws -> (admitted: Bool, nextIn: Int64) {
        let rows = try connection.query(
            """
            WITH admitted AS (
                INSERT INTO address_limits AS l (kind, address, tat) VALUES ($1, $2, $3::bigint + $4)
                ON CONFLICT (kind, address) DO UPDATE SET tat = greatest(l.tat, $3::bigint) + $4
                WHERE greatest(l.tat, $3::bigint) + $4 - $3::bigint <= $5
                RETURNING tat)
            SELECT true AS admitted, greatest(tat + $4 - $5 - $3::bigint, 0) AS next_in FROM admitted
            UNION ALL
            SELECT false, greatest(l.tat + $4 - $5 - $3::bigint, 1) FROM address_limits l
            WHERE l.kind = $1 AND l.address = $2 AND NOT EXISTS (SELECT 1 FROM admitted)
            """,
            [kind, address, now, interval, burst]
        )
        // No row: refused against a row this statement's snapshot cannot see (a concurrent
        // first count); a second is a fair wait.
        guard let row = rows.first else { return (false, 1000) }
        return (try row.decode("admitted"), try row.decode("next_in"))
    }

    /// Removes the rows whose time passed (they would admit the next request as a new row
    /// does); how many went.
    public func sweep(now: Int64) throws -> Int {
        try connection.query("DELETE FROM address_limits WHERE tat < $1", [now]).affectedRows
    }
}
