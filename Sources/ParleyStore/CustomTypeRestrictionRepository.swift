import ParleyCore
import Postgres

/// SQL of `custom_type_restrictions` (migration 0044, API.md §14.7): bans and mutes for every
/// channel of a custom type. Channels' reads of them are `ModerationRepository`'s.
public struct CustomTypeRestrictionRepository {
    let connection: PostgresConnection
    let kind: RestrictionKind

    /// Imposes (or replaces) one per user: until `endAt` (-1: until lifted).
    public func impose(_ customType: String, _ entries: [(userID: String, endAt: Int64, description: String)], now: Int64) throws {
        try connection.query(
            """
            INSERT INTO custom_type_restrictions (kind, custom_type, user_id, start_at, end_at, description)
            SELECT $1, $2, e.user_id, $3, e.end_at, e.description FROM unnest($4::text[], $5::bigint[], $6::text[]) AS e(user_id, end_at, description)
            ON CONFLICT (kind, user_id, custom_type) DO UPDATE
                SET start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, description = EXCLUDED.description
            """,
            [kind.rawValue, customType, now, entries.map(\.userID), entries.map(\.endAt), entries.map(\.description)])
    }

    /// Lifts them; returns the users who had one.
    public func lift(_ customType: String, userIDs: [String]) throws -> [String] {
        try connection.query(
            "DELETE FROM custom_type_restrictions WHERE kind = $1 AND custom_type = $2 AND user_id = ANY($3) RETURNING user_id",
            [kind.rawValue, customType, userIDs]
        ).map { try $0.decode("user_id") }
    }

    /// Those in force at `now`, in user id order after `afterUserID`.
    public func list(_ customType: String, afterUserID: String?, limit: Int, now: Int64) throws -> [Restriction] {
        try connection.query(
            """
            SELECT r.start_at, r.end_at, r.description, u.user_id, u.nickname, u.profile_url, u.is_active
            FROM custom_type_restrictions r JOIN users u ON u.user_id = r.user_id
            WHERE r.kind = $1 AND r.custom_type = $2 AND (r.end_at = -1 OR r.end_at > $3) AND r.user_id > $4
            ORDER BY r.user_id LIMIT $5
            """,
            [kind.rawValue, customType, now, afterUserID ?? "", Int64(limit)]
        ).map { row in
            Restriction(
                user: try UserRepository.basicUser(row), startAt: try row.decode("start_at"), endAt: try row.decode("end_at"),
                description: try row.decode("description"))
        }
    }

    /// The group channels (joined or invited) and open channels (entered) of the user with this custom type.
    public func channels(of userID: String, customType: String) throws -> [(kind: ChannelKind, channelURL: String)] {
        try connection.query(
            """
            SELECT 'group' AS kind, m.channel_url FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.user_id = $1 AND c.custom_type = $2
            UNION ALL
            SELECT 'open', p.channel_url FROM open_channel_participants p JOIN open_channels c ON c.channel_url = p.channel_url
            WHERE p.user_id = $1 AND c.custom_type = $2
            ORDER BY 1, 2
            """,
            [userID, customType]
        ).map { (ChannelKind(rawValue: try $0.decode("kind")) ?? .group, try $0.decode("channel_url")) }
    }
}
