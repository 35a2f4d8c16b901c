import Foundation
import ParleyCore
import Testing

/// `PushPreference.isQuiet`: do not disturb in the user's own time zone, across midnight, and
/// snoozes; and the channel option over the user's.
@Suite struct PushQuietTests {
    /// Milliseconds of a wall-clock time in `zone` on 2026-01-15.
    static func at(_ hour: Int, _ minute: Int, in zone: String) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let date = calendar.date(from: DateComponents(year: 2026, month: 1, day: 15, hour: hour, minute: minute))!
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    static func nightly(_ zone: String) -> PushPreference {
        var preference = PushPreference()
        preference.doNotDisturb = true
        (preference.startHour, preference.startMinute, preference.endHour, preference.endMinute) = (22, 30, 7, 0)
        preference.timeZone = zone
        return preference
    }

    @Test func aWindowAcrossMidnightHoldsInTheUsersOwnTimeZone() {
        let seoul = Self.nightly("Asia/Seoul")
        #expect(seoul.isQuiet(atMillis: Self.at(23, 0, in: "Asia/Seoul")))
        #expect(seoul.isQuiet(atMillis: Self.at(6, 59, in: "Asia/Seoul")))
        #expect(seoul.isQuiet(atMillis: Self.at(22, 30, in: "Asia/Seoul")), "the start is inside")
        #expect(!seoul.isQuiet(atMillis: Self.at(7, 0, in: "Asia/Seoul")), "the end is outside")
        #expect(!seoul.isQuiet(atMillis: Self.at(12, 0, in: "Asia/Seoul")))
        // 23:00 in Seoul is 14:00 UTC: the same instant is quiet for Seoul, not for a UTC window.
        #expect(!Self.nightly("UTC").isQuiet(atMillis: Self.at(23, 0, in: "Asia/Seoul")))
        var off = seoul
        off.doNotDisturb = false
        #expect(!off.isQuiet(atMillis: Self.at(23, 0, in: "Asia/Seoul")))
    }

    @Test func aDaytimeWindowAndAnEmptyOne() {
        var preference = Self.nightly("America/New_York")
        (preference.startHour, preference.startMinute, preference.endHour, preference.endMinute) = (9, 0, 17, 0)
        #expect(preference.isQuiet(atMillis: Self.at(12, 0, in: "America/New_York")))
        #expect(!preference.isQuiet(atMillis: Self.at(18, 0, in: "America/New_York")))
        (preference.endHour, preference.endMinute) = (9, 0)
        #expect(!preference.isQuiet(atMillis: Self.at(9, 0, in: "America/New_York")), "start equal to end is no window")
    }

    @Test func aSnoozeHoldsFromItsStartUntilItsEnd() {
        var preference = PushPreference()
        preference.snoozeEnabled = true
        (preference.snoozeStart, preference.snoozeEnd) = (1_000, 2_000)
        #expect(!preference.isQuiet(atMillis: 999))
        #expect(preference.isQuiet(atMillis: 1_000) && preference.isQuiet(atMillis: 1_999))
        #expect(!preference.isQuiet(atMillis: 2_000))
        preference.snoozeEnabled = false
        #expect(!preference.isQuiet(atMillis: 1_500))
    }

    @Test func theChannelOptionOverridesTheUsersUnlessDefault() {
        #expect(ChannelPushTriggerOption.default.resolved(over: .mentionOnly) == .mentionOnly)
        #expect(ChannelPushTriggerOption.all.resolved(over: .off) == .all)
        #expect(ChannelPushTriggerOption.off.resolved(over: .all) == .off)
    }

    @Test func updatesAreCheckedAndLeaveWhatTheyDoNotName() throws {
        var update = PushPreferenceUpdate()
        update.startHour = 23
        let changed = try update.applied(to: Self.nightly("Europe/Berlin"))
        #expect(changed.startHour == 23 && changed.endHour == 7 && changed.timeZone == "Europe/Berlin")
        for bad in [{ (u: inout PushPreferenceUpdate) in u.endMinute = 60 }, { $0.timeZone = "Nowhere/City" }, { $0.startHour = -1 }] {
            var update = PushPreferenceUpdate()
            bad(&update)
            #expect(throws: ParleyError.self) { try update.applied(to: PushPreference()) }
        }
    }
}
