import ParleyCore
import Postgres

/// What a download needs to know, read in one statement: the file as its message shows it, the
/// channel, and the asking user's membership, key generation and whether they are active.
public struct StoredFileAccess: Sendable {
    public let channelURL: String
    public let file: FileAttachment
    /// The asking user's membership state in the file's channel; nil when not a member. In an
    /// open channel, which everyone may read, every user not banned from it counts as joined.
    public let memberState: MemberState?
    /// The asking user's current file key generation, and whether they are active; nil when the
    /// user is gone.
    public let keyHolder: (generation: Int64, isActive: Bool)?
}

/// SQL for `files`: which channel and message each stored file belongs to.
public struct FileRepository {
    let connection: PostgresConnection

    /// Links an uploaded file to its channel and message (nil in an ephemeral channel).
    public func insert(fileID: String, _ file: FileAttachment, channelURL: String, messageID: Int64?, now: Int64) throws {
        try connection.query(
            "INSERT INTO files (file_id, channel_url, message_id, file, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)",
            [fileID, channelURL, messageID, try JSONColumn.text(file), now]
        )
    }

    /// The stored file and what `userID` (nil: the admin) may do with it; nil when unknown (a
    /// removed message's files are forgotten with it).
    public static func access(fileID: String, userID: String?, now: Int64) -> Lookup<StoredFileAccess?> {
        Lookup(
            query: Query(
                """
                SELECT f.channel_url, f.file::text AS file, u.file_key_generation, u.is_active,
                    CASE WHEN c.channel_type = 'group' THEN gm.state
                         WHEN u.user_id IS NOT NULL AND ban.user_id IS NULL THEN 'joined' END AS member_state
                FROM files f JOIN channels c ON c.channel_url = f.channel_url
                LEFT JOIN group_channel_members gm ON gm.channel_url = f.channel_url AND gm.user_id = $2
                LEFT JOIN users u ON u.user_id = $2
                \(ModerationRepository.join(.ban, .open, channel: "f.channel_url", user: "$2", now: "$3", as: "ban"))
                WHERE f.file_id = $1
                """,
                [fileID, userID, now]
            ) { result in
                try result.first.map { row in
                    StoredFileAccess(
                        channelURL: try row.decode("channel_url"),
                        file: try JSONColumn.value(try row.decode("file", as: String.self)),
                        memberState: try row.decodeIfPresent("member_state", as: MemberState.self),
                        keyHolder: try row.decodeIfPresent("file_key_generation", as: Int64.self).map { ($0, try row.decode("is_active")) }
                    )
                }
            })
    }

    /// Forgets the files of a message; returns their ids, whose bytes the caller removes after commit.
    public func removeForMessage(_ messageID: Int64) throws -> [String] {
        let rows = try connection.query("DELETE FROM files WHERE message_id = $1 RETURNING file_id", [messageID])
        return try rows.map { try $0.decode("file_id") }
    }

    /// Forgets the files of a channel (before the channel goes); returns their ids.
    public func removeForChannel(_ channelURL: String) throws -> [String] {
        let rows = try connection.query("DELETE FROM files WHERE channel_url = $1 RETURNING file_id", [channelURL])
        return try rows.map { try $0.decode("file_id") }
    }

    /// The ids among `fileIDs` that some message, a pending scheduled message, or a finished job
    /// (an access archive, a data export) whose link has not expired by `now` still uses (the
    /// sweeper keeps those).
    public func known(_ fileIDs: [String], now: Int64) throws -> Set<String> {
        let rows = try connection.query(
            """
            SELECT file_id FROM files WHERE file_id = ANY($1::text[])
            UNION ALL
            SELECT file ->> 'file_id' FROM scheduled_messages
            WHERE status = 'pending' AND file ? 'file_id' AND file ->> 'file_id' = ANY($1::text[])
            UNION ALL
            SELECT result ->> 'fileID' FROM jobs
            WHERE status = 'done' AND result ? 'fileID' AND result ->> 'fileID' = ANY($1::text[])
                AND (result ->> 'expiresAt')::bigint > $2
            """,
            [fileIDs, now])
        return Set(try rows.map { try $0.decode("file_id") as String })
    }

    /// Ends every file auth key issued to the user so far: their key generation moves on.
    public func revokeKeys(userID: String) throws {
        try connection.query("UPDATE users SET file_key_generation = nextval('file_key_generations') WHERE user_id = $1", [userID])
    }

    /// The user's current file key generation; nil when there is no such user.
    public static func keyGeneration(userID: String) -> Lookup<Int64?> {
        Lookup(
            query: Query("SELECT file_key_generation FROM users WHERE user_id = $1", [userID]) { result in
                try result.first?.decode("file_key_generation")
            })
    }
}
