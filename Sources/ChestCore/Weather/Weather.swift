import struct FoundationEssentials.Date

/// The five kinds of weather a lock can ask for (docs/DESIGN.md "Messages and locks").
public enum WeatherCondition: String, CaseIterable, Hashable, Sendable, Codable {
    case clear, cloudy, rainy, snowy, thundery

    /// How the condition reads in an explanation: "raining", "snowing"…
    public var presentParticiple: String {
        switch self {
        case .clear: "clear"
        case .cloudy: "cloudy"
        case .rainy: "raining"
        case .snowy: "snowing"
        case .thundery: "thundering"
        }
    }
}

/// One weather reading for a place, as a provider reported it.
public struct WeatherObservation: Hashable, Sendable, Codable {
    /// `nil` when the provider's code maps onto none of the five conditions.
    public var condition: WeatherCondition?
    public var temperatureC: Double?
    /// The position the reading was asked for (rounded to 0.01°).
    public var coordinate: Coordinate
    /// When the provider observed it.
    public var observedAt: Date
    /// When the daemon fetched it.
    public var fetchedAt: Date
    /// "open-meteo" or "openweathermap".
    public var provider: String

    public init(condition: WeatherCondition?, temperatureC: Double?, coordinate: Coordinate, observedAt: Date,
                fetchedAt: Date, provider: String) {
        self.condition = condition
        self.temperatureC = temperatureC
        self.coordinate = coordinate
        self.observedAt = observedAt
        self.fetchedAt = fetchedAt
        self.provider = provider
    }
}
