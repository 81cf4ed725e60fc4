/// A POSIX `TZ` rule, "std offset [dst [offset] [,start[/time],end[/time]]]", as `TZ` and the footer of a TZif file
/// spell it (POSIX XBD 8.3, RFC 8536 section 3.3): standard time, and maybe summer time between two days of each year.
package struct PosixZoneRule: Sendable, Hashable {
    package var standard: ZoneOffset
    /// Summer time and when it starts and ends each year; nil when the zone keeps standard time.
    package var daylight: Daylight?

    package struct Daylight: Sendable, Hashable {
        package var offset: ZoneOffset
        /// When summer time starts, on the clock of standard time.
        package var start: Change
        /// When it ends, on the clock of summer time.
        package var end: Change
    }

    /// A day of the year and a time on it.
    package struct Change: Sendable, Hashable {
        package enum Day: Sendable, Hashable {
            /// `Jn`: 1 to 365, February 29 never counted.
            case julian(Int)
            /// `n`: 0 to 365, February 29 counted in leap years.
            case ordinal(Int)
            /// `Mm.w.d`: day `d` (0 Sunday) of week `w` (1 to 5, 5 the last) of month `m`.
            case weekday(month: Int, week: Int, day: Int)
        }
        package var day: Day
        /// Seconds after midnight of that day, -167 to 167 hours (RFC 8536 version 3); 02:00 unless given.
        package var time: Int
    }

    /// Reads a rule; nil unless the whole text is one. Summer time without days changes as the US has since
    /// 2007 (M3.2.0,M11.1.0), as the C library and Go take it.
    package init?(_ text: String) {
        var reader = Reader(bytes: Array(text.utf8))
        guard let standardName = reader.name(), let standardOffset = reader.offset(maximumHours: 24) else {
            return nil
        }
        standard = ZoneOffset(offset: -standardOffset, abbreviation: standardName)
        guard !reader.atEnd else {
            daylight = nil
            return
        }
        guard let daylightName = reader.name() else { return nil }
        let daylightOffset =
            reader.peek == UInt8(ascii: ",") || reader.atEnd ? standardOffset - 3600 : reader.offset(maximumHours: 24)
        guard let daylightOffset else { return nil }
        let changes: (Change, Change)?
        if reader.atEnd {
            changes = (
                Change(day: .weekday(month: 3, week: 2, day: 0), time: 7200),
                Change(day: .weekday(month: 11, week: 1, day: 0), time: 7200)
            )
        } else if reader.take(","), let start = reader.change(), reader.take(","), let end = reader.change(),
            reader.atEnd
        {
            changes = (start, end)
        } else {
            changes = nil
        }
        guard let changes else { return nil }
        daylight = Daylight(
            offset: ZoneOffset(offset: -daylightOffset, isDaylight: true, abbreviation: daylightName),
            start: changes.0, end: changes.1)
    }

    /// The offset in force at `instant` (seconds since 1970, UTC).
    package func offset(at instant: Int64) -> ZoneOffset {
        guard let daylight else { return standard }
        let year = RFC3339.civilFromDays(Int(Self.floorDivide(instant + Int64(standard.offset), 86_400))).year
        // The changes of the years around, in order: the last one before `instant` says which time it is. At a tie
        // summer time's end comes first, so that a rule of summer time all year ("0/0,J365/25") keeps it.
        var last: (at: Int64, daylight: Bool)?
        for year in year - 1...year + 1 {
            for (at, isStart) in [
                (daylight.end.instant(year: year, offset: daylight.offset.offset), false),
                (daylight.start.instant(year: year, offset: standard.offset), true),
            ] where at <= instant && (last.map { at >= $0.at } ?? true) {
                last = (at, isStart)
            }
        }
        return last?.daylight == true ? daylight.offset : standard
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

extension PosixZoneRule.Change {
    /// The instant of this change in `year`, its time read on a clock `offset` seconds east of UTC.
    func instant(year: Int, offset: Int) -> Int64 {
        let january = RFC3339.daysFromCivil(year: year, month: 1, day: 1)
        let leap = RFC3339.daysIn(month: 2, year: year) == 29
        let days: Int
        switch day {
        case let .julian(number): days = january + number - 1 + (leap && number >= 60 ? 1 : 0)
        case let .ordinal(number): days = january + number
        case let .weekday(month, week, weekday):
            let first = RFC3339.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = ((first + 4) % 7 + 7) % 7
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while day - first >= RFC3339.daysIn(month: month, year: year) { day -= 7 }
            days = day
        }
        return Int64(days) * 86_400 + Int64(time) - Int64(offset)
    }
}

/// Reads a POSIX `TZ` rule a byte at a time.
private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// "CET", or "<+0530>" in angle brackets: three letters at least.
    mutating func name() -> String? {
        let start = index
        if take("<") {
            while let byte = peek, byte.isLetterOrDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                index += 1
            }
            let name = bytes[(start + 1)..<index]
            guard take(">"), name.count >= 3 else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
        while let byte = peek, byte.isLetter { index += 1 }
        return index - start >= 3 ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// "[+-]hh[:mm[:ss]]" in seconds, positive west of Greenwich as POSIX counts.
    mutating func offset(maximumHours: Int) -> Int? {
        let negative = take("-")
        if !negative { _ = take("+") }
        guard let hours = number(digits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(digits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let rest = number(digits: 2), rest < 60 else { return nil }
                seconds += rest
            }
        }
        return negative ? -seconds : seconds
    }

    /// "Jn", "n" or "Mm.w.d", then "/time" if there is one.
    mutating func change() -> PosixZoneRule.Change? {
        let day: PosixZoneRule.Change.Day
        if take("J") {
            guard let number = number(digits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if take("M") {
            guard let month = number(digits: 2), (1...12).contains(month), take("."),
                let week = number(digits: 1), (1...5).contains(week), take("."),
                let weekday = number(digits: 1), weekday <= 6
            else { return nil }
            day = .weekday(month: month, week: week, day: weekday)
        } else {
            guard let number = number(digits: 3), number <= 365 else { return nil }
            day = .ordinal(number)
        }
        guard take("/") else { return PosixZoneRule.Change(day: day, time: 7200) }
        guard let time = offset(maximumHours: 167) else { return nil }
        return PosixZoneRule.Change(day: day, time: time)
    }

    /// One to `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        var value = 0
        var count = 0
        while count < digits, let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count > 0 ? value : nil
    }
}

extension UInt8 {
    fileprivate var isLetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
    fileprivate var isLetterOrDigit: Bool { isLetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}
