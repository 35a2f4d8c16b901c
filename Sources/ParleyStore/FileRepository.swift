import Foundation
import ParleyCore
import Postgres

/// What a download needs to know, read in one statement: the file as its message shows it, the
/// channel, and the asking user's membership and file-key revocation time.
public struct StoredFileAccess: Sendable {
    public let channelURL: String
    public let file: FileAttachment
    /// The asking user's membership state in the file's channel; nil when not a member.
    public let memberState: MemberState?
    /// Keys of the asking user issued before this instant are revoked; nil when the user is gone.
    public let fileKeysValidAfter: Int64?
}

/// SQL for `files`: which channel and message each stored file belongs to.
public struct FileRepository {
    let connection: PostgresConnection

    /// Links an uploaded file to its message (nil in an ephemeral channel).
    public func insert(fileID: String, channelURL: String, messageID: Int64?, fileJSON: String, now: Int64) throws {
        try connection.query(
            "INSERT INTO files (file_id, channel_url, message_id, file, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)",
            [fileID, channelURL, messageID, fileJSON, now]
        )
    }

    /// The stored file and what `userID` (nil: the admin) may do with it; nil when unknown (a
    /// removed message's files are forgotten with it).
    public static func access(fileID: String, userID: String?) -> Lookup<StoredFileAccess?> {
        Lookup(query: Query(
            """
            SELECT f.channel_url, f.file::text AS file, gm.state AS member_state, u.file_keys_valid_after
            FROM files f
            LEFT JOIN group_channel_members gm ON gm.channel_url = f.channel_url AND gm.user_id = $2
            LEFT JOIN users u ON u.user_id = $2
            WHERE f.file_id = $1
            """,
            [fileID, userID]
        ) { result in
            try result.first.map { row in
                let fileJSON: String = try row.decode("file")
                return StoredFileAccess(
                    channelURL: try row.decode("channel_url"),
                    file: try JSONDecoder().decode(FileAttachment.self, from: Data(fileJSON.utf8)),
                    memberState: try row.decodeIfPresent("member_state", as: String.self).flatMap(MemberState.init(rawValue:)),
                    fileKeysValidAfter: try row.decodeIfPresent("file_keys_valid_after")
                )
            }
        })
    }

    /// Forgets the files of a message; returns their ids, whose bytes the caller removes after commit.
    public func removeForMessage(_ messageID: Int64) throws -> [String] {
        let rows = try connection.query("DELETE FROM files WHERE message_id = $1 RETURNING file_id", [messageID])
        return try (0..<rows.count).map { try rows[$0].decode("file_id") }
    }

    /// Forgets the files of a channel (before the channel goes); returns their ids.
    public func removeForChannel(_ channelURL: String) throws -> [String] {
        let rows = try connection.query("DELETE FROM files WHERE channel_url = $1 RETURNING file_id", [channelURL])
        return try (0..<rows.count).map { try rows[$0].decode("file_id") }
    }

    /// The ids among `fileIDs` that some message still uses (the sweeper keeps those).
    public func known(_ fileIDs: [String]) throws -> Set<String> {
        let rows = try connection.query("SELECT file_id FROM files WHERE file_id = ANY($1::text[])", [fileIDs])
        return Set(try (0..<rows.count).map { try rows[$0].decode("file_id") as String })
    }

    /// Revokes the user's file auth keys issued before `now`.
    public func revokeKeys(userID: String, now: Int64) throws {
        try connection.query("UPDATE users SET file_keys_valid_after = $2 WHERE user_id = $1", [userID, now])
    }
}
