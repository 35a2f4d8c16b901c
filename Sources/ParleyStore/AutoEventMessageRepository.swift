import Foundation
import ParleyCore
import Postgres

/// SQL of `application_settings.auto_event_messages` (migration 0046, API.md §14.7).
public struct AutoEventMessageRepository {
    let connection: PostgresConnection

    public func settings() throws -> AutoEventMessages {
        try Self.decode(try connection.query("SELECT auto_event_messages::text AS s FROM application_settings")[0].decode("s"))
    }

    public func save(_ settings: AutoEventMessages) throws {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try connection.query("UPDATE application_settings SET auto_event_messages = $1::jsonb", [text])
    }

    /// The settings and the group channel an event happened in (its name; whether it is
    /// ephemeral, which keeps no messages), in one read; nil when the channel is gone.
    public func settings(for channelURL: String) throws -> (settings: AutoEventMessages, name: String, isEphemeral: Bool)? {
        try connection.query(
            """
            SELECT s.auto_event_messages::text AS s, c.name, c.is_ephemeral
            FROM application_settings s JOIN group_channels c ON c.channel_url = $1
            """, [channelURL]
        ).first.map { row in
            (try Self.decode(try row.decode("s")), try row.decode("name"), try row.decode("is_ephemeral"))
        }
    }

    private static func decode(_ text: String) throws -> AutoEventMessages {
        try JSONDecoder().decode(AutoEventMessages.self, from: Data(text.utf8))
    }
}
