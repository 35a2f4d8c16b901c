import ParleyCore
import Postgres

/// SQL for a parent's `thread_info` (API.md §13.1), kept in the transaction of each reply and
/// each reply's deletion. Both lock the parent's row before anything else of the thread, so
/// concurrent replies and deletions of one thread count one after the other, exactly: each
/// statement after the lock starts once the others' changes committed, and sees them (issue
/// 50.6: with the replier rows changed before the lock, the parent's update waited for the lock
/// with a snapshot older than another deletion, and ranked and dated from it).
public struct ThreadRepository {
    let connection: PostgresConnection

    /// A reply by `userID` (nil: an admin message) at `at` was stored.
    public func recordReply(parentID: Int64, userID: String?, at: Int64) throws {
        lockParent(parentID)
        if let userID {
            try connection.query(
                """
                INSERT INTO thread_repliers (parent_message_id, user_id, replies, last_replied_at) VALUES ($1, $2, 1, $3)
                ON CONFLICT (parent_message_id, user_id)
                DO UPDATE SET replies = thread_repliers.replies + 1, last_replied_at = GREATEST(thread_repliers.last_replied_at, $3)
                """,
                [parentID, userID, at]
            )
        }
        try connection.query(
            """
            UPDATE messages SET reply_count = reply_count + 1, last_replied_at = GREATEST(last_replied_at, $2),
                thread_updated_at = $2, changed_at = GREATEST(changed_at, $2), most_replies = \(Self.mostReplies("$1"))
            WHERE message_id = $1
            """,
            [parentID, at]
        )
    }

    /// A reply by `userID` was removed at `now`: one reply fewer, and the newest remaining one.
    public func recordRemoval(parentID: Int64, userID: String?, now: Int64) throws {
        lockParent(parentID)
        if let userID {
            try connection.query(
                """
                WITH gone AS (
                    DELETE FROM thread_repliers WHERE parent_message_id = $1 AND user_id = $2 AND replies <= 1 RETURNING user_id
                )
                UPDATE thread_repliers SET replies = replies - 1 WHERE parent_message_id = $1 AND user_id = $2 AND replies > 1
                """,
                [parentID, userID]
            )
        }
        try connection.query(
            """
            UPDATE messages SET reply_count = GREATEST(reply_count - 1, 0),
                last_replied_at = COALESCE((
                    SELECT r.created_at FROM messages r WHERE r.parent_message_id = $1 AND NOT r.is_removed
                    ORDER BY r.created_at DESC, r.message_id DESC LIMIT 1), 0),
                thread_updated_at = $2, changed_at = GREATEST(changed_at, $2), most_replies = \(Self.mostReplies("$1"))
            WHERE message_id = $1
            """,
            [parentID, now]
        )
    }

    /// Locks the parent's row, in the round trip of the next statement (an id is a number: it is
    /// written into the text, which carries no parameters).
    private func lockParent(_ parentID: Int64) {
        connection.sendWithNext("SELECT 1 FROM messages WHERE message_id = \(parentID) FOR UPDATE")
    }

    /// The channel's messages with these ids that `viewerID` may see (nil: the admin): replies'
    /// parents, for their `parent_message_info`.
    public func parents(_ channelURL: String, _ ids: [Int64], viewerID: String?) throws -> [Int64: Message] {
        guard !ids.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns) FROM \(MessageRows.from(viewer: "$3"))
            WHERE m.channel_url = $1 AND m.message_id = ANY($2::bigint[]) AND \(MessageRows.visible(to: "$3"))
            """,
            [channelURL, ids.map(String.init), viewerID]
        )
        return Dictionary(try MessageRows.decode(rows).map { ($0.messageID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The users with the most replies in the thread of `parent` (a placeholder), as shown.
    private static func mostReplies(_ parent: String) -> String {
        """
        (SELECT COALESCE(jsonb_agg(jsonb_build_object('userID', r.user_id, 'nickname', COALESCE(u.nickname, ''),
                'profileURL', COALESCE(u.profile_url, ''), 'isActive', COALESCE(u.is_active, false))
                ORDER BY r.replies DESC, r.last_replied_at DESC, r.user_id), '[]'::jsonb)
            FROM (SELECT * FROM thread_repliers WHERE parent_message_id = \(parent)
                ORDER BY replies DESC, last_replied_at DESC, user_id LIMIT \(ThreadInfo.mostRepliesShown)) r
            LEFT JOIN users u ON u.user_id = r.user_id)
        """
    }
}
