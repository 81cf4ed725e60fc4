import FoundationEssentials

/// A time zone: local times for people to read, and local times they type read back. Its offsets come from the tz
/// database's TZif bytes (`ZoneRules`), which ChestIO reads (`Zone(identifier:)`, `Zone.current`); UTC and fixed
/// offsets are arithmetic. Nothing here reads or sets the process's `TZ`: the C library's `localtime_r` and
/// `mktime` with a `TZ` set for the call were unsafe with threads (docs/ARCHITECTURE.md "Time zones").
/// FoundationEssentials' `TimeZone` knows only GMT offsets, and the full Foundation's would bring ICU's 34 MB
/// (docs/PACKAGING.md "One small program").
package struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// "Europe/Zurich", "UTC", "+02:00", or what the system's /etc/localtime names.
    package let identifier: String
    package let rules: ZoneRules

    /// A zone named `identifier` keeping `rules`.
    package init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        self.rules = rules
    }

    /// A zone of TZif bytes (RFC 8536) named `identifier`.
    package init(identifier: String, tzif bytes: [UInt8]) throws(TZif.FormatError) {
        self.init(identifier: identifier, rules: try TZif.rules(bytes))
    }

    /// A zone `offset` seconds east of UTC for ever, named "+02:00"; UTC for 0.
    package init(offset: Int) {
        guard offset != 0 else {
            self = .utc
            return
        }
        let minutes = abs(offset) / 60
        self.init(
            identifier: (offset < 0 ? "-" : "+") + String(printf: "%02d:%02d", minutes / 60, minutes % 60),
            rules: ZoneRules(fixed: ZoneOffset(fixed: offset)))
    }

    /// Coordinated Universal Time.
    package static let utc = Zone(identifier: "UTC", rules: ZoneRules(fixed: ZoneOffset(fixed: 0)))

    package var description: String { identifier }

    /// A local time: the date and the time of day on the clock of a zone, with its offset and abbreviation.
    package struct LocalTime: Sendable, Hashable {
        package var year: Int, month: Int, day: Int
        package var hour: Int, minute: Int, second: Int
        /// 0 for Sunday to 6 for Saturday.
        package var weekday: Int
        /// Seconds east of UTC.
        package var offset: Int
        /// "CET", "CEST", "UTC", or "+0530" where the database has no letters.
        package var abbreviation: String

        /// "Jan" to "Dec".
        package var monthName: String { Self.months[month - 1] }
        /// "Sun" to "Sat".
        package var weekdayName: String { Self.weekdays[weekday] }

        private static let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]
        private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

        /// Whether `other` falls on the same calendar day.
        package func isSameDay(as other: LocalTime) -> Bool {
            year == other.year && month == other.month && day == other.day
        }
    }

    /// `date` on this zone's clock, to the second (a fraction is dropped, rounding down).
    package func local(_ date: Date) -> LocalTime {
        let instant = Self.seconds(date)
        let offset = rules.offset(at: instant)
        let local = instant + Int64(offset.offset)
        let days = PosixZoneRule.floorDivide(local, 86_400)
        let second = Int(local - days * 86_400)
        let (year, month, day) = RFC3339.civilFromDays(Int(days))
        return LocalTime(
            year: year, month: month, day: day, hour: second / 3600, minute: second / 60 % 60, second: second % 60,
            weekday: Int((days + 4) % 7 + 7) % 7, offset: offset.offset, abbreviation: offset.abbreviation)
    }

    /// Seconds east of UTC at `date`.
    package func secondsFromGMT(for date: Date = Date()) -> Int { rules.offset(at: Self.seconds(date)).offset }

    /// The abbreviation at `date` ("CET", "CEST").
    package func abbreviation(for date: Date = Date()) -> String { rules.offset(at: Self.seconds(date)).abbreviation }

    /// The zone's name at a local time as people read it beside a date: the abbreviation ("CET", "CEST", "GMT" for
    /// UTC as ever), or "GMT+5:30" where the database has only numbers ("+0530").
    package func name(_ local: LocalTime) -> String {
        if local.abbreviation == "UTC" { return "GMT" }
        guard let sign = local.abbreviation.first, sign == "+" || sign == "-" else { return local.abbreviation }
        let minutes = abs(local.offset) / 60
        return "GMT" + (local.offset < 0 ? "-" : "+") + "\(minutes / 60)"
            + (minutes % 60 == 0 ? "" : String(printf: ":%02d", minutes % 60))
    }

    /// The instant a clock of this zone shows as the given local time. A local time the clocks show twice (summer
    /// time ending) is its first occurrence, on the clock before the change (a doubled 02:30 in Zurich is 02:30
    /// CEST); one they skip (summer time starting) is read with the offset before the change (a skipped 02:30 is
    /// 03:30 CEST), as glibc's `mktime` reads them and as RFC 5545 says. Nil for an impossible date.
    package func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date? {
        guard (1...12).contains(month), (1...RFC3339.daysIn(month: month, year: year)).contains(day),
            (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        let wall =
            Int64(RFC3339.daysFromCivil(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        // Every reading of `wall` lies within 30 hours of it: the offsets in force then are the candidates.
        let around = [rules.offset(at: wall - 108_000).offset, rules.offset(at: wall + 108_000).offset]
        let candidates = Set(around + around.map { rules.offset(at: wall - Int64($0)).offset })
        let readings = candidates.filter { rules.offset(at: wall - Int64($0)).offset == $0 }
        // Of two readings, the larger offset is the earlier instant; in a gap, the smaller offset is the one before.
        let offset = readings.max() ?? around.min() ?? 0
        return Date(timeIntervalSince1970: Double(wall - Int64(offset)))
    }

    /// Whole seconds since 1970 of `date`, rounded down; kept within a range the calendar arithmetic can take.
    private static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-1e15, min(1e15, value)))
    }
}
