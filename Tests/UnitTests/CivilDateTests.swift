import Foundation
import ParleyCore
import Testing

@Suite struct CivilDateTests {
    /// From 1583 on: before it Foundation's Gregorian calendar counts Julian days.
    @Test func daysSince1970MatchFoundationsCalendarBothWays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for epochDay in stride(from: Int64(-141_000), through: 2_900_000, by: 997) {
            let date = CivilDate(epochDay: epochDay)
            let expected = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(epochDay) * 86_400))
            #expect([date.year, date.month, date.day] == [expected.year, expected.month, expected.day], "\(epochDay)")
            #expect(date.epochDay == epochDay)
        }
    }

    @Test func textIsStrictAndCalendarValid() {
        #expect(CivilDate("2024-02-29")?.epochDay == 19_782)
        #expect(CivilDate("2023-02-29") == nil)
        #expect(CivilDate("2024-2-01") == nil)
        #expect(CivilDate("2024-13-01") == nil)
        #expect(CivilDate("２０２４-01-01") == nil)
        #expect(CivilDate("2024-01-01T00") == nil)
        #expect(CivilDate(epochDay: 0).text == "1970-01-01")
        #expect(CivilDate("2024-02-10")!.monthSpan.last.text == "2024-02-29")
        #expect(CivilDate("2100-02-10")!.monthSpan.last.day == 28)
    }
}
