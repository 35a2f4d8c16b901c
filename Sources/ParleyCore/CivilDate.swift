/// A day of the proleptic Gregorian calendar in UTC, as the statistics count them (API.md
/// §14.5): to and from days since 1970-01-01, and the `YYYY-MM-DD` text of the API. The
/// conversions are Howard Hinnant's `days_from_civil` and `civil_from_days`, exact for every year.
public struct CivilDate: Sendable, Equatable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (month 1–12, day within the month, year 1–9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else {
            return nil
        }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// `YYYY-MM-DD`, strictly.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `epochDay` days after 1970-01-01.
    public init(epochDay: Int64) {
        let z = epochDay + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        (year, self.month, self.day) = (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    /// Days since 1970-01-01.
    public var epochDay: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var text: String { "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))" }
    public var monthText: String { "\(Self.padded(year, 4))-\(Self.padded(month, 2))" }

    /// The first and the last day of this date's month.
    public var monthSpan: (first: CivilDate, last: CivilDate) {
        (CivilDate(year: year, month: month, day: 1)!, CivilDate(year: year, month: month, day: Self.days(inMonth: month, of: year))!)
    }

    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.epochDay < rhs.epochDay }

    /// The Monday of this date's week (weeks run Monday to Sunday, as ISO 8601's).
    public var weekStart: CivilDate {
        let day = epochDay
        return CivilDate(epochDay: day - ((day % 7 + 7 + 3) % 7))
    }

    /// The days from `first` through `last` grouped into consecutive periods by `label` (a day's
    /// text, its month's, its week's), oldest first.
    public static func periods(from first: CivilDate, through last: CivilDate, label: (CivilDate) -> String)
        -> [(label: String, days: ClosedRange<Int64>)]
    {
        var periods: [(label: String, days: ClosedRange<Int64>)] = []
        for day in first.epochDay...last.epochDay {
            let text = label(CivilDate(epochDay: day))
            if let current = periods.last, current.label == text {
                periods[periods.count - 1].days = current.days.lowerBound...day
            } else {
                periods.append((text, day...day))
            }
        }
        return periods
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
}
