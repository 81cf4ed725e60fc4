import ChestCore
import FoundationEssentials

/// The hunt's start, end and time left as the board in a browser shows them (docs/HUNTS.md "The hunt's start and
/// end"): the schedule in force as instants, for the page's script to count down each second and to turn to the
/// final ranking at the end; and the window in words, in the board's time zone, for the page before its script
/// runs and for the results.
enum BoardClock {
    /// The header's clock; empty when the hunt has neither a start nor an end.
    static func html(_ schedule: HuntSchedule, timeZone: Zone) -> String {
        guard !schedule.isEmpty else { return "" }
        var attributes = ""
        if let starts = schedule.starts {
            attributes +=
                #" data-starts="\#(ISO8601.string(starts))" data-starts-at="\#(HTML.escaped(hourMinute(starts, timeZone)))""#
        }
        if let ends = schedule.ends {
            attributes +=
                #" data-ends="\#(ISO8601.string(ends))" data-ends-at="\#(HTML.escaped(hourMinute(ends, timeZone)))""#
        }
        return #"<p class="clock" id="clock"\#(attributes)>\#(HTML.escaped(window(schedule, timeZone: timeZone)))</p>"#
    }

    /// "14:00–16:00", "from 14:00", "until 16:00"; with `date`, the day first: "Sat 2 May 2027, 14:00–16:00", and
    /// each end's day when the window spans midnight.
    static func window(_ schedule: HuntSchedule, timeZone: Zone, date: Bool = false) -> String {
        let starts = schedule.starts
        let ends = schedule.ends
        let day = (starts ?? ends).map { dayText($0, timeZone) }
        let spansDays = starts.flatMap { s in ends.map { dayText(s, timeZone) != dayText($0, timeZone) } } ?? false
        func at(_ instant: Date) -> String {
            (spansDays ? dayText(instant, timeZone) + " " : "") + hourMinute(instant, timeZone)
        }
        let hours =
            switch (starts, ends) {
            case let (s?, e?): "\(at(s))\u{2013}\(at(e))"
            case let (s?, nil): "from \(at(s))"
            case let (nil, e?): "until \(at(e))"
            case (nil, nil): ""
            }
        guard date, let day, !spansDays else { return hours }
        return "\(day), \(hours)"
    }

    /// "14:05".
    static func hourMinute(_ instant: Date, _ zone: Zone) -> String {
        let local = zone.local(instant)
        return String(printf: "%02d:%02d", local.hour, local.minute)
    }

    /// "Sat 28 Nov 2026".
    static func dayText(_ instant: Date, _ zone: Zone) -> String {
        let local = zone.local(instant)
        return "\(local.weekdayName) \(local.day) \(local.monthName) \(local.year)"
    }
}
