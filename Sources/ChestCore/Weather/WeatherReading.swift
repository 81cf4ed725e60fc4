import FoundationEssentials

/// The weather a lock may use at the reader's position: a usable observation, or why there is none.
package enum WeatherReading: Hashable, Sendable {
    case known(WeatherObservation)
    case unknown(WeatherUnknown)

    /// The usable observation, if any.
    package var observation: WeatherObservation? {
        if case .known(let observation) = self { observation } else { nil }
    }
}

/// Why the weather is unknown. Unknown weather never opens a lock (docs/DESIGN.md "Lock rules").
package enum WeatherUnknown: Hashable, Sendable, Codable {
    /// There has never been a reading.
    case missing
    /// The newest reading near the reader was observed this many seconds ago (negative: ahead of the clock).
    case stale(age: TimeInterval)
    /// The nearest reading was asked for this many metres away.
    case far(distance: Double)
    /// There is no current fix to say where the reader is.
    case noPosition
    /// The reading carries no temperature.
    case noTemperature
    /// The provider could not be reached since this instant, and no usable reading is left.
    case offline(since: Date)

    /// The reason alone, for a lock's explanation: "offline since 14:02", "last reading 47 min old".
    /// - Parameters:
    ///   - now: the instant the explanation is for; an outage that began on another day shows its date.
    ///   - timeZone: the zone clock times are shown in.
    package func detail(now: Date, timeZone: Zone) -> String {
        switch self {
        case .missing:
            "no reading yet"
        case .noPosition:
            "needs a current GPS fix"
        case .noTemperature:
            "the reading has no temperature"
        case .stale(let age) where age < 0:
            "last reading dated \(Wording.duration(-age)) ahead of the clock"
        case .stale(let age):
            "last reading \(Wording.duration(age)) old"
        case .far(let distance):
            "last reading is for a place \(Wording.distance(distance)) away"
        case .offline(let since):
            "offline since \(Self.clockTime(since, now: now, timeZone: timeZone))"
        }
    }

    /// "weather unknown: offline since 14:02".
    package func description(now: Date, timeZone: Zone) -> String {
        "weather unknown: " + detail(now: now, timeZone: timeZone)
    }

    /// "14:02" on the same day as `now`, "3 Mar 14:02" otherwise.
    static func clockTime(_ date: Date, now: Date, timeZone: Zone) -> String {
        let local = timeZone.local(date)
        let today = timeZone.local(now)
        let time = String(printf: "%02d:%02d", local.hour, local.minute)
        if local.isSameDay(as: today) { return time }
        let year = local.year == today.year ? "" : " \(local.year)"
        return "\(local.day) \(local.monthName)\(year) \(time)"
    }
}
