import struct Foundation.Date

/// Whether a weather observation can speak for the reader's position now (SPEC §4).
public enum WeatherEvidence: Hashable, Sendable {
    case usable(WeatherObservation)
    case unknown(String)
}

extension Engine {
    /// Observations farther than this from the reader are for somewhere else.
    public static let weatherMaximumDistance = 5_000.0

    /// The observation that speaks for the reader's last known position, or why there is none.
    public func weatherEvidence(now: Now) -> WeatherEvidence {
        guard let observation = weather else { return .unknown("weather unknown: no reading yet") }
        let age = now.wall.timeIntervalSince(observation.observedAt)
        guard age <= weatherMaximumAge else {
            return .unknown("weather unknown: the last reading is \(Int(age / 60)) min old")
        }
        guard let position = lastFix?.position else { return .unknown("weather unknown: needs a GPS fix") }
        let distance = position.distance(to: observation.coordinate)
        guard distance <= Self.weatherMaximumDistance else {
            return .unknown("weather unknown: the last reading is for a place \(Int(distance / 1000)) km away")
        }
        return .usable(observation)
    }

    /// Whether a weather or temperature lock holds on the current evidence.
    func weatherHolds(_ ref: LockRef, now: Now) -> Bool {
        guard case let .usable(observation) = weatherEvidence(now: now),
              let lock = entries[ref.id]?.message.lock(ref.key) else { return false }
        switch lock {
        case let .weather(condition): return observation.condition == condition
        case let .temperature(bounds): return observation.temperatureC.map(bounds.contains) ?? false
        default: return false
        }
    }

    /// Whether any weather or temperature lock is still waiting: weather is fetched only then (SPEC §5).
    public var needsWeather: Bool { !weathers.isEmpty }
}
