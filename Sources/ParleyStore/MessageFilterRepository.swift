import Foundation
import ParleyCore
import Postgres

/// SQL of `message_filters` and `profanity_strikes` (migration 0045, API.md §14.7).
public struct MessageFilterRepository {
    let connection: PostgresConnection

    /// Every custom type's settings, and a fingerprint that changes whenever any does.
    public func all() throws -> (settings: [String: MessageFilterSettings], fingerprint: String) {
        var settings: [String: MessageFilterSettings] = [:]
        var fingerprint = ""
        for row in try connection.query(
            "SELECT custom_type, settings::text AS settings, updated_at FROM message_filters ORDER BY custom_type")
        {
            let customType: String = try row.decode("custom_type")
            settings[customType] = try JSONDecoder().decode(
                MessageFilterSettings.self, from: Data(try row.decode("settings", as: String.self).utf8))
            fingerprint += "\(customType)@\(try row.decode("updated_at", as: Int64.self));"
        }
        return (settings, fingerprint)
    }

    /// The fingerprint alone (one index-only read): whether the compiled filters are still current.
    public func fingerprint() throws -> String {
        try connection.query(
            "SELECT COALESCE(string_agg(custom_type || '@' || updated_at || ';', '' ORDER BY custom_type), '') AS f FROM message_filters"
        )[0].decode("f")
    }

    public func find(_ customType: String) throws -> MessageFilterSettings? {
        try connection.query("SELECT settings::text AS settings FROM message_filters WHERE custom_type = $1", [customType]).first.map {
            try JSONDecoder().decode(MessageFilterSettings.self, from: Data(try $0.decode("settings", as: String.self).utf8))
        }
    }

    public func save(_ customType: String, _ settings: MessageFilterSettings, now: Int64) throws {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try connection.query(
            """
            INSERT INTO message_filters (custom_type, settings, updated_at) VALUES ($1, $2::jsonb, $3)
            ON CONFLICT (custom_type) DO UPDATE SET settings = EXCLUDED.settings, updated_at = GREATEST(message_filters.updated_at + 1, EXCLUDED.updated_at)
            """, [customType, text, now])
    }

    /// Counts a hit of the user in the channel and returns their hits since `since`; hits older
    /// than `forgetBefore` go.
    public func strike(_ channelURL: String, _ userID: String, at now: Int64, since: Int64, forgetBefore: Int64) throws -> Int {
        try connection.query("DELETE FROM profanity_strikes WHERE user_id = $1 AND at < $2", [userID, forgetBefore])
        try connection.query("INSERT INTO profanity_strikes (channel_url, user_id, at) VALUES ($1, $2, $3)", [channelURL, userID, now])
        return try connection.query(
            "SELECT count(*) AS n FROM profanity_strikes WHERE user_id = $1 AND channel_url = $2 AND at >= $3", [userID, channelURL, since]
        )[0].decode("n")
    }

    /// Forgets the user's hits in the channel (after the action they triggered).
    public func clearStrikes(_ channelURL: String, _ userID: String) throws {
        try connection.query("DELETE FROM profanity_strikes WHERE user_id = $1 AND channel_url = $2", [userID, channelURL])
    }
}
