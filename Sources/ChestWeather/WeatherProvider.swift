import ChestCore
import FoundationEssentials

/// A source of current weather for a position: Open-Meteo, OpenWeatherMap, or a test's fake.
package protocol WeatherProvider: Sendable {
    /// The name recorded in observations and the cache: "open-meteo", "openweathermap".
    var name: String { get }

    /// Asks for the current weather at `coordinate`, rounded to 0.01° before it leaves the machine.
    /// - Parameter now: the fetch time recorded in the observation.
    func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherObservation
}
