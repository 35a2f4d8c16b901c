import ParleyCore
import Postgres

/// Reads of a user's personal data for a GDPR access archive (API.md §14.1): each record as one
/// JSON object (text), in the API's field names.
public struct PersonalDataRepository {
    let connection: PostgresConnection

    /// The profile with its metadata, or nil for no such user.
    public func profile(_ userID: String) throws -> String? {
        try connection.query(
            """
            SELECT jsonb_build_object('user_id', u.user_id, 'nickname', u.nickname, 'profile_url', u.profile_url,
                'is_active', u.is_active, 'last_seen_at', u.last_seen_at, 'created_at', u.created_at,
                'metadata', COALESCE((SELECT jsonb_object_agg(key, value) FROM user_metadata WHERE user_id = u.user_id), '{}'),
                'blocked_user_ids', COALESCE((SELECT jsonb_agg(blocked_id ORDER BY blocked_id) FROM user_blocks WHERE blocker_id = u.user_id), '[]'),
                'push_tokens', COALESCE((SELECT jsonb_agg(jsonb_build_object('token_type', token_type, 'token', token)) FROM push_tokens
                    WHERE user_id = u.user_id), '[]'))::text AS record
            FROM users u WHERE u.user_id = $1
            """,
            [userID]
        ).first?.decode("record")
    }

    /// The group channels the user is a member of, and their membership in each.
    public func memberships(_ userID: String) throws -> [String] {
        try connection.query(
            """
            SELECT jsonb_build_object('channel_url', m.channel_url, 'name', c.name, 'state', m.state, 'is_operator', m.is_operator,
                'invited_at', m.invited_at, 'joined_at', m.joined_at, 'inviter_id', m.inviter_id)::text AS record
            FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.user_id = $1 ORDER BY m.channel_url
            """,
            [userID]
        ).map { try $0.decode("record") }
    }

    /// The next messages the user sent (not deleted), after `afterID`: each record, and the
    /// stored file it carries (its id), if any.
    public func sentMessages(_ userID: String, after afterID: Int64, limit: Int) throws
        -> [(messageID: Int64, record: String, fileID: String?)]
    {
        try connection.query(
            """
            SELECT m.message_id, f.file_id, jsonb_build_object('message_id', m.message_id, 'channel_url', m.channel_url,
                'channel_type', m.channel_type, 'type', m.message_type, 'message', m.message, 'data', m.data,
                'custom_type', m.custom_type, 'created_at', m.created_at, 'updated_at', m.updated_at,
                'parent_message_id', m.parent_message_id, 'sorted_metaarray', m.sorted_metaarray, 'translations', m.translations,
                'file', CASE WHEN m.file IS NULL THEN NULL ELSE jsonb_build_object('name', m.file ->> 'name', 'type',
                    m.file ->> 'type', 'size', m.file -> 'size', 'file_id', f.file_id) END)::text AS record
            FROM messages m LEFT JOIN files f ON f.message_id = m.message_id
            WHERE m.sender_id = $1 AND m.message_id > $2 AND NOT m.is_removed ORDER BY m.message_id LIMIT $3
            """,
            [userID, afterID, Int64(limit)]
        ).map { (try $0.decode("message_id"), try $0.decode("record"), try $0.decodeIfPresent("file_id")) }
    }

    /// The reactions the user added, as records.
    public func reactions(_ userID: String) throws -> [String] {
        try connection.query(
            """
            SELECT jsonb_build_object('message_id', message_id, 'reaction', reaction, 'updated_at', updated_at)::text AS record
            FROM message_reactions WHERE user_id = $1 ORDER BY message_id, reaction
            """,
            [userID]
        ).map { try $0.decode("record") }
    }
}
