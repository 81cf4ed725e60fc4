import FoundationEssentials
import Glibc

/// ISO 8601 instants, as message files and `compose` write them.
package enum ISO8601 {
    /// Reads "2026-12-24T18:00:00+01:00", "2026-12-24T17:00:00Z", with or without fractional seconds.
    /// Without a zone ("2026-12-24T18:00", "2026-12-24 18:00:00"), the time is read in `localZone` when one is
    /// given, and refused otherwise: a message file always names its zone.
    package static func parse(_ text: String, localZone: Zone? = nil) -> Date? {
        let trimmed = text.trimmingSpaces().replacing(" ", with: "T")
        if let date = RFC3339.parse(trimmed) { return date }
        guard let localZone else { return nil }
        return RFC3339.parseLocal(trimmed).flatMap {
            localZone.date(
                year: $0.year, month: $0.month, day: $0.day, hour: $0.hour, minute: $0.minute, second: $0.second)
        }
    }

    /// "2026-12-24T17:00:00Z", or "2026-12-24T17:00:00.250Z" when the instant has a fraction of a second: UTC,
    /// rounded to the millisecond. Canonical: a string this writes reads back to an instant that writes the same
    /// string, which the seal over a message's bytes depends on.
    package static func string(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = RFC3339.format(seconds: whole.0)
        guard whole.1 != 0 else { return text }
        let digits = String(whole.1 + 1000).dropFirst()
        return text.dropLast() + "." + digits + "Z"
    }

    /// `string(date)`'s UTF-8 appended to `bytes`, without a String in between for a whole second of the years
    /// 0–9999 (chestd's track line, one a fix).
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        guard fraction == 0, RFC3339.append(seconds: seconds, to: &bytes) else { return bytes += string(date).utf8 }
    }
}

/// RFC 3339 times by arithmetic, without a calendar library: the daemon reads and writes thousands of them, and
/// Foundation's formatters would load ICU's data (megabytes of resident memory) to do it.
package enum RFC3339 {
    /// "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)"; nil for anything else, or an impossible date.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(":")
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// "YYYY-MM-DDTHH:MM:SS", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD" (midnight), a local time without a zone; nil for
    /// anything else.
    static func parseLocal(_ text: String) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func at(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard [10, 16, 19].contains(bytes.count), let year = number(0..<4), at(4, "-"), let month = number(5..<7),
            at(7, "-"), let day = number(8..<10)
        else { return nil }
        guard bytes.count > 10 else { return (year, month, day, 0, 0, 0) }
        guard at(10, "T"), let hour = number(11..<13), at(13, ":"), let minute = number(14..<16) else { return nil }
        guard bytes.count > 16 else { return (year, month, day, hour, minute, 0) }
        guard at(16, ":"), let second = number(17..<19) else { return nil }
        return (year, month, day, hour, minute, second)
    }

    /// "2026-12-24T17:00:00Z" for whole seconds since 1970.
    static func format(seconds: Int64) -> String {
        let text = String(unsafeUninitializedCapacity: 20) { write(seconds: seconds, into: $0) ?? 0 }
        if !text.isEmpty { return text }
        let (year, month, dayOfMonth, secondOfDay) = civil(seconds: seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(dayOfMonth))T\(two(Int(secondOfDay / 3600))):"
            + "\(two(Int(secondOfDay % 3600 / 60))):\(two(Int(secondOfDay % 60)))Z"
    }

    /// Appends `format(seconds:)`'s 20 bytes to `bytes` when the year is 0–9999; false, appending nothing, otherwise.
    static func append(seconds: Int64, to bytes: inout [UInt8]) -> Bool {
        var written = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            written = write(seconds: seconds, into: buffer) ?? 0
            bytes += buffer[..<written]
        }
        return written > 0
    }

    /// The date, the month, the day and the second of the day of whole seconds since 1970.
    private static func civil(seconds: Int64) -> (year: Int, month: Int, day: Int, secondOfDay: Int64) {
        let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, secondOfDay) = rest < 0 ? (days - 1, rest + 86_400) : (days, rest)
        let (year, month, dayOfMonth) = civilFromDays(Int(day))
        return (year, month, dayOfMonth, secondOfDay)
    }

    /// Writes the 20 bytes of `format(seconds:)` into `buffer` (at least 20 long) for the years 0–9999 and returns
    /// 20; nil for any other year. Digits written into place: the interpolated pieces cost each fix of chestd's
    /// track a dozen small strings (docs/BENCHMARKS.md "The fix path's CPU").
    private static func write(seconds: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let (year, month, dayOfMonth, secondOfDay) = civil(seconds: seconds)
        guard (0...9999).contains(year) else { return nil }
        var end = 0
        func put(_ value: Int, _ width: Int, then separator: Unicode.Scalar) {
            var rest = value
            for position in (end..<(end + width)).reversed() {
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[end + width] = UInt8(ascii: separator)
            end += width + 1
        }
        put(year, 4, then: "-")
        put(month, 2, then: "-")
        put(dayOfMonth, 2, then: "T")
        put(Int(secondOfDay / 3600), 2, then: ":")
        put(Int(secondOfDay % 3600 / 60), 2, then: ":")
        put(Int(secondOfDay % 60), 2, then: "Z")
        return end
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
