import Foundation
import ParleyCore
import Postgres

/// Push preferences (`push_preferences` and the members' columns, migration 0023).
public struct PushPreferenceRepository {
    let connection: PostgresConnection

    static let columns = """
        push_trigger_option, do_not_disturb, start_hour, start_min, end_hour, end_min, timezone, snooze_enabled,
        snooze_start_ts, snooze_end_ts, push_sound, alternative_push_sound, enable_push_for_replies, template
        """

    /// The columns of `columns`, qualified by a table alias.
    static func columns(of alias: String) -> String {
        columns.split(separator: ",").map { alias + "." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
    }

    /// The user's preferences; the defaults when they never set any.
    public func preference(of userID: String) throws -> PushPreference {
        try connection.query("SELECT \(Self.columns) FROM push_preferences WHERE user_id = $1", [userID]).first.map(Self.decode)
            ?? PushPreference()
    }

    public func save(_ preference: PushPreference, for userID: String) throws {
        try connection.query(
            """
            INSERT INTO push_preferences (user_id, \(Self.columns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
            ON CONFLICT (user_id) DO UPDATE SET (\(Self.columns)) = (
                EXCLUDED.push_trigger_option, EXCLUDED.do_not_disturb, EXCLUDED.start_hour, EXCLUDED.start_min, EXCLUDED.end_hour,
                EXCLUDED.end_min, EXCLUDED.timezone, EXCLUDED.snooze_enabled, EXCLUDED.snooze_start_ts, EXCLUDED.snooze_end_ts,
                EXCLUDED.push_sound, EXCLUDED.alternative_push_sound, EXCLUDED.enable_push_for_replies, EXCLUDED.template)
            """,
            [
                userID, preference.triggerOption.rawValue, preference.doNotDisturb, Int64(preference.startHour),
                Int64(preference.startMinute), Int64(preference.endHour), Int64(preference.endMinute), preference.timeZone,
                preference.snoozeEnabled, preference.snoozeStart, preference.snoozeEnd, preference.sound, preference.alternativeSound,
                preference.pushForReplies, preference.template.rawValue
            ]
        )
    }

    /// Back to the defaults.
    public func reset(_ userID: String) throws {
        try connection.query("DELETE FROM push_preferences WHERE user_id = $1", [userID])
    }

    /// A member's option and sound in a group channel; nil when they are not a member.
    public func channelPreference(_ channelURL: String, userID: String) throws -> (option: ChannelPushTriggerOption, sound: String)? {
        try connection.query(
            "SELECT push_trigger_option, push_sound FROM group_channel_members WHERE channel_url = $1 AND user_id = $2",
            [channelURL, userID]
        ).first.map { row in
            (ChannelPushTriggerOption(rawValue: try row.decode("push_trigger_option")) ?? .default, try row.decode("push_sound"))
        }
    }

    /// Sets a member's option and sound; false when they are not a member.
    public func setChannelPreference(_ channelURL: String, userID: String, option: ChannelPushTriggerOption, sound: String) throws -> Bool {
        try connection.query(
            "UPDATE group_channel_members SET push_trigger_option = $3, push_sound = $4 WHERE channel_url = $1 AND user_id = $2",
            [channelURL, userID, option.rawValue, sound]
        ).affectedRows == 1
    }

    static func decode(_ row: PostgresRow) throws -> PushPreference {
        var preference = PushPreference()
        preference.triggerOption = PushTriggerOption(rawValue: try row.decode("push_trigger_option")) ?? .all
        preference.doNotDisturb = try row.decode("do_not_disturb")
        preference.startHour = Int(try row.decode("start_hour") as Int64)
        preference.startMinute = Int(try row.decode("start_min") as Int64)
        preference.endHour = Int(try row.decode("end_hour") as Int64)
        preference.endMinute = Int(try row.decode("end_min") as Int64)
        preference.timeZone = try row.decode("timezone")
        preference.snoozeEnabled = try row.decode("snooze_enabled")
        preference.snoozeStart = try row.decode("snooze_start_ts")
        preference.snoozeEnd = try row.decode("snooze_end_ts")
        preference.sound = try row.decode("push_sound")
        preference.alternativeSound = try row.decode("alternative_push_sound")
        preference.pushForReplies = try row.decode("enable_push_for_replies")
        preference.template = PushTemplateName(rawValue: try row.decode("template")) ?? .default
        return preference
    }
}

extension PushPreferenceRepository {
    /// The application's push templates (`push_templates`, migration 0025), `default` first.
    public func templates() throws -> [PushTemplate] {
        try connection.query("SELECT name, mesg, file, admm FROM push_templates ORDER BY name = 'alternative', name").map { row in
            PushTemplate(
                name: PushTemplateName(rawValue: try row.decode("name")) ?? .default, userMessage: try row.decode("mesg"),
                fileMessage: try row.decode("file"), adminMessage: try row.decode("admm"))
        }
    }

    public func saveTemplate(_ template: PushTemplate) throws {
        try connection.query(
            "UPDATE push_templates SET mesg = $2, file = $3, admm = $4 WHERE name = $1",
            [template.name.rawValue, template.userMessage, template.fileMessage, template.adminMessage]
        )
    }
}
