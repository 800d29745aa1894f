import Foundation

/// A date as `JSONEncoder`'s `.iso8601` strategy writes it (`2026-11-22T10:00:00Z`: UTC, whole seconds), without
/// a formatter: results written without `JSONEncoder` (`JSONValueConvertible`) write their dates with it.
public enum InternetDateTime {
    /// Seconds since 1970 of 1583-01-01T00:00:00Z and of 10000-01-01T00:00:00Z: dates outside are left to
    /// Foundation (its calendar is Julian before October 1582; this one Gregorian throughout).
    static let range = -12_212_553_600.0..<253_402_300_800.0

    public static func string(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        write(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the date's 20 characters (no quotes) to `out`: a result's dates without a `String` each.
    public static func write(_ date: Date, to out: inout [UInt8]) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard range.contains(seconds) else { return out.append(contentsOf: date.formatted(.iso8601).utf8) }
        let (days, second) = Int64(seconds).quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = civil(days: second < 0 ? days - 1 : days)
        let secondOfDay = second < 0 ? second + 86_400 : second
        func put(_ value: Int64, _ digits: Int, then separator: Unicode.Scalar) {
            var divisor: Int64 = digits == 4 ? 1000 : 10
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            out.append(UInt8(ascii: separator))
        }
        put(year, 4, then: "-")
        put(month, 2, then: "-")
        put(day, 2, then: "T")
        put(secondOfDay / 3600, 2, then: ":")
        put(secondOfDay / 60 % 60, 2, then: ":")
        put(secondOfDay % 60, 2, then: "Z")
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
