import Foundation

/// Which messages push to a user (API.md §12.2): all, only those that mention them, or none.
public enum PushTriggerOption: String, Sendable, CaseIterable {
    case all
    case mentionOnly = "mention_only"
    case off
}

/// A member's choice for one channel: the user's own option (`default`), or one of its own.
public enum ChannelPushTriggerOption: String, Sendable, CaseIterable {
    case `default`
    case all
    case mentionOnly = "mention_only"
    case off

    /// The option in force for a user whose own is `userOption`.
    public func resolved(over userOption: PushTriggerOption) -> PushTriggerOption {
        switch self {
        case .default: userOption
        case .all: .all
        case .mentionOnly: .mentionOnly
        case .off: .off
        }
    }
}

/// Which of the two push templates a user's pushes are written with.
public enum PushTemplateName: String, Sendable, CaseIterable {
    case `default`
    case alternative
}

/// A user's push preferences (API.md §12.2), with the defaults of a user who never set them.
public struct PushPreference: Sendable, Equatable {
    public var triggerOption = PushTriggerOption.all
    public var doNotDisturb = false
    public var startHour = 0
    public var startMinute = 0
    public var endHour = 0
    public var endMinute = 0
    /// An IANA time zone name; the do-not-disturb window is in its wall-clock time.
    public var timeZone = "UTC"
    public var snoozeEnabled = false
    /// Milliseconds since the epoch.
    public var snoozeStart: Int64 = 0
    public var snoozeEnd: Int64 = 0
    public var sound = ""
    public var alternativeSound = ""
    public var pushForReplies = true
    public var template = PushTemplateName.default

    public init() {}

    /// Whether pushes wait at `millis` (ms since the epoch): snoozed, or inside the daily
    /// do-not-disturb window of the user's time zone, which may cross midnight (22:00–07:00).
    /// A window whose start and end are the same minute is empty.
    public func isQuiet(atMillis millis: Int64) -> Bool {
        if snoozeEnabled && snoozeStart <= millis && millis < snoozeEnd { return true }
        guard doNotDisturb, let zone = TimeZone(identifier: timeZone) else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(millis) / 1000))
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let start = startHour * 60 + startMinute
        let end = endHour * 60 + endMinute
        if start == end { return false }
        return start < end ? (start <= now && now < end) : (now >= start || now < end)
    }
}

/// A change to a user's push preferences; nil fields stay as they are.
public struct PushPreferenceUpdate: Sendable {
    public var triggerOption: PushTriggerOption?
    public var doNotDisturb: Bool?
    public var startHour: Int?
    public var startMinute: Int?
    public var endHour: Int?
    public var endMinute: Int?
    public var timeZone: String?
    public var snoozeEnabled: Bool?
    public var snoozeStart: Int64?
    public var snoozeEnd: Int64?
    public var sound: String?
    public var alternativeSound: String?
    public var pushForReplies: Bool?

    public init() {}

    /// `preference` with this change applied, or 400111 for a value out of range (an hour
    /// outside 0–23, a minute outside 0–59, an unknown time zone, a snooze ending before it starts).
    public func applied(to preference: PushPreference) throws -> PushPreference {
        var result = preference
        if let triggerOption { result.triggerOption = triggerOption }
        if let doNotDisturb { result.doNotDisturb = doNotDisturb }
        for (value, field, range) in [
            (startHour, "start_hour", 0...23), (startMinute, "start_min", 0...59), (endHour, "end_hour", 0...23),
            (endMinute, "end_min", 0...59)
        ] {
            if let value, !range.contains(value) {
                throw ParleyError.invalidValue(field, "must be \(range.lowerBound)–\(range.upperBound)")
            }
        }
        result.startHour = startHour ?? result.startHour
        result.startMinute = startMinute ?? result.startMinute
        result.endHour = endHour ?? result.endHour
        result.endMinute = endMinute ?? result.endMinute
        if let timeZone {
            guard timeZone.utf8.count <= 64, TimeZone(identifier: timeZone) != nil else {
                throw ParleyError.invalidValue("timezone", "not an IANA time zone name")
            }
            result.timeZone = timeZone
        }
        if let snoozeEnabled { result.snoozeEnabled = snoozeEnabled }
        result.snoozeStart = snoozeStart ?? result.snoozeStart
        result.snoozeEnd = snoozeEnd ?? result.snoozeEnd
        if result.snoozeEnabled && result.snoozeEnd < result.snoozeStart {
            throw ParleyError.invalidValue("snooze_end_ts", "ends before snooze_start_ts")
        }
        if let sound { result.sound = try Validation.text(sound, field: "push_sound", max: 256) }
        if let alternativeSound {
            result.alternativeSound = try Validation.text(alternativeSound, field: "alternative_push_sound", max: 256)
        }
        if let pushForReplies { result.pushForReplies = pushForReplies }
        return result
    }
}
