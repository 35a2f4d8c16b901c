import ParleyCore
import Postgres

/// The push queue (`push_queue`, migration 0024). Rows are written by the send's statement
/// (`MessageRepository.insert`); this is what the dispatcher does with them.
public struct PushQueueRepository {
    let connection: PostgresConnection

    /// Drops the pushes of messages sent before `cutoff` (ms): a chat push that could not go out
    /// within its limit is worse than none (API.md §12.6). Returns how many went.
    public func dropExpired(sentBefore cutoff: Int64) throws -> Int {
        Int(try connection.query("DELETE FROM push_queue WHERE created_at < $1", [cutoff]).affectedRows)
    }
}
