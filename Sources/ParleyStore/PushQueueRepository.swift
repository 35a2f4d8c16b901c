import ParleyCore
import Postgres

/// The push queue (`push_queue`, migration 0024). Rows are written by the send's statement
/// (`MessageRepository.insert`); this is what the dispatcher does with them.
public struct PushQueueRepository {
    let connection: PostgresConnection

    /// Drops the pushes of messages sent more than `limit` ms ago by the database's clock (one
    /// clock for every instance): a chat push that could not go out within its limit is worse
    /// than none (API.md §12.6). Returns how many went.
    public func dropExpired(olderThanMillis limit: Int64) throws -> Int {
        try connection.query(
            "DELETE FROM push_queue WHERE created_at < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1", [limit]
        ).affectedRows
    }
}
