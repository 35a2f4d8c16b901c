import ParleyCore
import Postgres

/// A position in a changelog: the change's time, then the item's id, so that changes at the
/// same millisecond page without repeats or gaps.
public struct ChangePosition: Sendable, Equatable {
    public let changedAt: Int64
    public let key: String

    public init(changedAt: Int64, key: String) {
        self.changedAt = changedAt
        self.key = key
    }
}

/// SQL for the changelogs (API.md §6.6): what changed in a channel's messages, and in a user's
/// channels, since a position, oldest first.
public struct ChangelogRepository {
    let connection: PostgresConnection

    /// Messages edited, reacted to or deleted after `position` (removed ones included: they are
    /// the `deleted` of the answer) that `viewer` may see.
    public func messageChanges(
        _ channelURL: String, after position: ChangePosition, viewer: MessageViewer, limit: Int
    ) throws -> [(Message, ChangePosition)] {
        // Message ids are numbers, compared as such: the key holds one (or "" at the start).
        let afterID = Int64(position.key) ?? -1
        let rows = try connection.query(
            """
            SELECT \(MessageRows.columns), m.changed_at FROM \(MessageRows.from(viewer: "$6"))
            WHERE m.channel_url = $1 AND m.changed_at > 0 AND (m.changed_at, m.message_id) > ($2::bigint, $3::bigint)
                AND m.created_at >= $4 AND \(MessageRows.visible(to: "$6"))
            ORDER BY m.changed_at, m.message_id LIMIT $5
            """,
            [channelURL, position.changedAt, afterID, viewer.visibleFrom, limit, viewer.userID]
        )
        let messages = try MessageRows.decode(rows)
        return try zip(messages, rows).map { message, row in
            (message, ChangePosition(changedAt: try row.decode("changed_at"), key: String(message.messageID)))
        }
    }

    /// The user's channels that changed after `position` (their fields, their membership or
    /// their last message), and the channels the user is no longer in (`departed`).
    public func channelChanges(_ userID: String, after position: ChangePosition, limit: Int) throws -> [ChannelChange] {
        try connection.query(
            """
            SELECT channel_url, changed_at, departed FROM (
                SELECT m.channel_url, GREATEST(g.changed_at, m.changed_at) AS changed_at, false AS departed
                FROM group_channel_members m JOIN group_channels g ON g.channel_url = m.channel_url
                WHERE m.user_id = $1 AND GREATEST(g.changed_at, m.changed_at) >= $2
                UNION ALL
                SELECT channel_url, departed_at, true FROM group_channel_departures WHERE user_id = $1 AND departed_at >= $2
            ) changes
            WHERE (changed_at, channel_url) > ($2::bigint, $3::text COLLATE "C")
            ORDER BY changed_at, channel_url LIMIT $4
            """,
            [userID, position.changedAt, position.key, limit]
        ).map { row in
            ChannelChange(
                channelURL: try row.decode("channel_url"), departed: try row.decode("departed"),
                position: ChangePosition(changedAt: try row.decode("changed_at"), key: try row.decode("channel_url"))
            )
        }
    }
}

public struct ChannelChange: Sendable {
    public let channelURL: String
    /// The user left the channel, was removed, or it was deleted.
    public let departed: Bool
    public let position: ChangePosition
}
