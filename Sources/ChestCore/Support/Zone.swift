import FoundationEssentials
import Glibc
import Synchronization

/// A time zone of the system's tz database, read through the C library (`localtime_r`, `mktime` with `TZ`):
/// local times for people to read, and local times they type read back. FoundationEssentials' `Zone` knows only
/// GMT offsets, and the full Foundation's would bring ICU's 34 MB (docs/PACKAGING.md "One small program").
package struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// "Europe/Zurich", "UTC", or what the system's /etc/localtime names.
    package let identifier: String
    /// The value of `TZ` that selects this zone; nil for the system's default (TZ unset).
    private let rule: String?

    /// A zone of the tz database by name ("Europe/Zurich", "UTC"); nil when the system has no such zone.
    package init?(identifier: String) {
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"].contains(identifier) {
            self = .utc
            return
        }
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.split(separator: "/").contains(".."),
            access(Self.databaseDirectory + "/" + identifier, R_OK) == 0
        else { return nil }
        self.identifier = identifier
        rule = ":" + identifier
    }

    private init(identifier: String, rule: String?) {
        self.identifier = identifier
        self.rule = rule
    }

    /// Coordinated Universal Time.
    package static let utc = Zone(identifier: "UTC", rule: "UTC0")

    /// The zone of this process: `TZ` as it was when the program started, else the system's /etc/localtime.
    package static let current: Zone = {
        guard let value = Zone.startingRule else {
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
            let name = link.firstRange(of: "zoneinfo/").map { String(link[$0.upperBound...]) } ?? "localtime"
            return Zone(identifier: name, rule: nil)
        }
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        return Zone(identifier: name.isEmpty ? "UTC" : name, rule: value)
    }()

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

    /// `date` on this zone's clock.
    package func local(_ date: Date) -> LocalTime {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        Self.withRule(rule) { _ = localtime_r(&seconds, &parts) }
        let abbreviation = parts.tm_zone.map { String(cString: $0) } ?? "UTC"
        return LocalTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            weekday: Int(parts.tm_wday),
            offset: parts.tm_gmtoff, abbreviation: abbreviation)
    }

    /// Seconds east of UTC at `date`.
    package func secondsFromGMT(for date: Date = Date()) -> Int { local(date).offset }

    /// The abbreviation at `date` ("CET", "CEST").
    package func abbreviation(for date: Date = Date()) -> String { local(date).abbreviation }

    /// The zone's name at a local time as people read it beside a date: the abbreviation ("CET", "CEST", "GMT" for
    /// UTC as ever), or "GMT+5:30" where the database has only numbers ("+0530").
    package func name(_ local: LocalTime) -> String {
        if local.abbreviation == "UTC" { return "GMT" }
        guard let sign = local.abbreviation.first, sign == "+" || sign == "-" else { return local.abbreviation }
        let minutes = abs(local.offset) / 60
        return "GMT" + (local.offset < 0 ? "-" : "+") + "\(minutes / 60)"
            + (minutes % 60 == 0 ? "" : String(printf: ":%02d", minutes % 60))
    }

    /// The instant a clock of this zone shows as the given local time; in a gap of a change to summer time, the
    /// instant the C library picks (the time read with the offset before the change). Nil for an impossible date.
    package func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date? {
        guard (1...12).contains(month), (1...RFC3339.daysIn(month: month, year: year)).contains(day),
            (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_isdst = -1
        var seconds: time_t = 0
        Self.withRule(rule) { seconds = mktime(&parts) }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    private static let databaseDirectory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
    private static let startingRule: String? = getenv("TZ").map { String(cString: $0) }
    private static let lock = Mutex(())

    /// Runs `body` with `TZ` set to `rule`, then puts `TZ` back as the program started with it. One at a time: `TZ`
    /// is the process's. For the zone the program started in, nothing is set and the database is not read again
    /// (the C library reads it once, at the first `localtime_r`).
    private static func withRule(_ rule: String?, _ body: () -> Void) {
        _ = startingRule
        lock.withLock { _ in
            guard rule != startingRule else { return body() }
            select(rule)
            body()
            select(startingRule)
        }
    }

    private static func select(_ value: String?) {
        if let value { setenv("TZ", value, 1) } else { unsetenv("TZ") }
        tzset()
    }
}
