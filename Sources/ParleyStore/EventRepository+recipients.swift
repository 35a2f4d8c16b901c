import Foundation
import ParleyCore
import Postgres
import Synchronization

/// Who receives a channel's events: its members as the event hub reads them (with `MemberCache`).
extension EventRepository {
    /// The members of these channels, for deciding recipients: who is in which channel, joined
    /// or invited, and from when on they may see messages (an open channel's participants are
    /// joined members who see every message).
    public func recipients(_ channelURLs: [String]) throws -> [String: [ChannelRecipient]] {
        let rows = try connection.query(
            """
            SELECT channel_url, user_id, state, ts_message_offset, since_event_id FROM channel_recipients
            WHERE channel_url = ANY($1::text[])
            """,
            [channelURLs]
        )
        var byChannel: [String: [ChannelRecipient]] = [:]
        for row in rows {
            let recipient = ChannelRecipient(
                userID: try row.decode("user_id"), state: try row.decode("state"), visibleFrom: try row.decode("ts_message_offset"),
                sinceEventID: try row.decode("since_event_id")
            )
            byChannel[try row.decode("channel_url"), default: []].append(recipient)
        }
        return byChannel
    }

    /// The member versions of these channels (migration 0008): a channel's members are as they
    /// were read while its version is the same. A channel without one has had no members.
    public func memberVersions(_ channelURLs: [String]) throws -> [String: Int64] {
        let rows = try connection.query(
            "SELECT channel_url, version FROM group_channel_member_versions WHERE channel_url = ANY($1::text[])", [channelURLs]
        )
        var versions: [String: Int64] = [:]
        for row in rows { versions[try row.decode("channel_url")] = try row.decode("version") }
        return versions
    }
}

/// A member of a channel as event delivery needs them.
public struct ChannelRecipient: Sendable {
    public let userID: String
    public let state: MemberState
    public let visibleFrom: Int64
    /// The newest event id when the membership began: the channel's earlier events are not theirs.
    public let sinceEventID: Int64
}
