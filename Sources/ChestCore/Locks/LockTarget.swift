import struct FoundationEssentials.Date

/// What a lock asks for, as values a program can work with (`chest read --json`'s `target`, `chest nav`): only
/// what the file shows openly, so a sealed place or PIN has none.
package struct LockTarget: Hashable, Sendable, Codable {
    /// A visible place: its centre, radius in metres and, when the organiser named it, its name (the page's label
    /// for the set, docs/FORMAT.md "Place labels").
    package var latitude: Double?
    package var longitude: Double?
    package var radius: Double?
    package var label: String?
    /// Metres above mean sea level.
    package var altitude: Bounds?
    /// °C.
    package var temperature: Bounds?
    package var weather: WeatherCondition?
    /// A time lock's instant.
    package var opensAt: Date?
    /// The page an `after` lock waits for.
    package var after: PageLink?

    package init(
        latitude: Double? = nil, longitude: Double? = nil, radius: Double? = nil, label: String? = nil,
        altitude: Bounds? = nil, temperature: Bounds? = nil, weather: WeatherCondition? = nil,
        opensAt: Date? = nil, after: PageLink? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.label = label
        self.altitude = altitude
        self.temperature = temperature
        self.weather = weather
        self.opensAt = opensAt
        self.after = after
    }

    /// A visible place's centre.
    package var center: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

extension Lock {
    /// What the lock asks for, when the file shows it openly.
    package var target: LockTarget? {
        switch self {
        case let .location(center, radius):
            LockTarget(latitude: center.latitude, longitude: center.longitude, radius: radius)
        case let .time(date), let .gpsTime(date): LockTarget(opensAt: date)
        case let .weather(condition): LockTarget(weather: condition)
        case let .temperature(bounds): LockTarget(temperature: bounds)
        case let .altitude(bounds): LockTarget(altitude: bounds)
        case let .after(link): LockTarget(after: link)
        case .pin, .sealedPIN, .sealedLocation, .release, .answer: nil
        }
    }
}
