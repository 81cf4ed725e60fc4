import struct FoundationEssentials.Date

/// The five kinds of weather a lock can ask for (docs/DESIGN.md "Messages and locks").
package enum WeatherCondition: String, CaseIterable, Hashable, Sendable, Codable {
    case clear, cloudy, rainy, snowy, thundery

    /// How the condition reads in an explanation: "raining", "snowing"…
    package var presentParticiple: String {
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
package struct WeatherObservation: Hashable, Sendable, Codable {
    /// `nil` when the provider's code maps onto none of the five conditions.
    package var condition: WeatherCondition?
    package var temperatureC: Double?
    /// The position the reading was asked for (rounded to 0.01°).
    package var coordinate: Coordinate
    /// When the provider observed it.
    package var observedAt: Date
    /// When the daemon fetched it.
    package var fetchedAt: Date
    /// "open-meteo" or "openweathermap".
    package var provider: String

    package init(
        condition: WeatherCondition?, temperatureC: Double?, coordinate: Coordinate, observedAt: Date,
        fetchedAt: Date, provider: String
    ) {
        self.condition = condition
        self.temperatureC = temperatureC
        self.coordinate = coordinate
        self.observedAt = observedAt
        self.fetchedAt = fetchedAt
        self.provider = provider
    }
}
