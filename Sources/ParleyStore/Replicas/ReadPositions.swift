import ParleyCore
import Postgres

/// Read-your-writes across instances (issue 51.3): where each caller's last write ended in the
/// primary's WAL (`read_positions`, migration 0051), and whether a replica has replayed it.
enum ReadPositions {
    /// The key a caller's writes are recorded under: the user behind a session token, or the
    /// Api-Token's holder (the app's backend, one writer whatever its processes). Nil outside a
    /// request (background work reads what it reads and is owed nothing).
    static func key(_ caller: Caller?) -> String? {
        switch caller {
        case .user(let id): "user:" + id
        case .admin: "app"
        case nil: nil
        }
    }

    /// Records that `caller` has just written, after the write committed: the primary's WAL
    /// position then is past the commit. A later position never moves back (two instances may
    /// record out of order).
    static func record(_ caller: String) -> Query<Void> {
        Query(
            """
            INSERT INTO read_positions (caller, lsn) VALUES ($1, (pg_current_wal_lsn() - '0/0')::bigint)
            ON CONFLICT (caller) DO UPDATE SET lsn = greatest(read_positions.lsn, EXCLUDED.lsn), written_at = now()
            """, [caller]
        ) { _ in }
    }

    /// Where `caller`'s last recorded write ended; nil when they have none recorded.
    static func lookup(_ caller: String) -> Query<Int64?> {
        Query("SELECT lsn FROM read_positions WHERE caller = $1", [caller]) { result in
            result.count == 0 ? nil : try result[0].decode("lsn", as: Int64.self)
        }
    }

    /// On a replica: whether it has replayed the primary's WAL up to `position`.
    static func replayed(past position: Int64) -> Query<Bool> {
        Query("SELECT coalesce((pg_last_wal_replay_lsn() - '0/0')::bigint >= $1, false) AS done", [position]) { result in
            try result[0].decode("done", as: Bool.self)
        }
    }

    /// Forgets positions older than `age`: every replica in the rotation has replayed them.
    static func sweep(olderThanMilliseconds age: Int) -> Query<Void> {
        Query("DELETE FROM read_positions WHERE written_at < now() - $1 * interval '1 millisecond'", [age]) { _ in }
    }
}
