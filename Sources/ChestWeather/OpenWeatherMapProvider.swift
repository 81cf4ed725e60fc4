import ChestCore
import FoundationEssentials

/// Current weather from OpenWeatherMap's "Current weather data" API 2.5 (needs a key; data CC BY-SA 4.0).
///
/// Sends `GET {base}/data/2.5/weather?lat=LAT&lon=LON&units=metric&appid=KEY` with the coordinates rounded to
/// 0.01°. The key travels in the query string, as OpenWeatherMap requires, so request URLs are never logged, and
/// neither this type's description nor any `WeatherError` it throws contains the key.
package final class OpenWeatherMapProvider: WeatherProvider, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// https://api.openweathermap.org
    package static let defaultBaseURL = URL(string: "https://api.openweathermap.org")!
    package static let providerName = "openweathermap"

    package let name = OpenWeatherMapProvider.providerName
    /// The scheme, host and optional path prefix that `/data/2.5/weather` is appended to.
    package let baseURL: URL
    private let key: String
    private let http: WeatherHTTPClient

    /// - Parameters:
    ///   - key: the API key (`chest config weather.key KEY`).
    ///   - baseURL: replaced by `--weather-url` or `chest config weather.url` (tests use a local server).
    ///   - timeout: the longest wait for an answer, in seconds.
    package init(key: String, baseURL: URL = OpenWeatherMapProvider.defaultBaseURL, timeout: TimeInterval = 15) {
        self.key = key.trimmed()
        self.baseURL = baseURL
        http = WeatherHTTPClient(provider: OpenWeatherMapProvider.providerName, timeout: timeout, secret: self.key)
    }

    package var description: String { "OpenWeatherMap at \(baseURL.absoluteString) (key set)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL], displayStyle: .class) }

    package func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherObservation {
        guard !key.isEmpty else { throw .badKey(provider: name) }
        let rounded = coordinate.rounded(places: WeatherSchedule.coordinatePlaces)
        guard
            let url = WeatherHTTPClient.url(
                base: baseURL, path: "/data/2.5/weather",
                query: [
                    ("lat", WeatherHTTPClient.twoDecimals(rounded.latitude)),
                    ("lon", WeatherHTTPClient.twoDecimals(rounded.longitude)),
                    // Without units the temperature comes in kelvin.
                    ("units", "metric"),
                    ("appid", key),
                ])
        else { throw .unreachable(provider: name, reason: "the weather URL is not valid") }
        let reply = try await http.get(url)
        guard reply.status == 200 else { throw http.statusError(reply, now: now) }
        return try Self.parse(reply.body, coordinate: rounded, fetchedAt: now)
    }

    /// Reads a 200 body: the most severe condition of `weather[].id`, `main.temp` in °C, `dt` as observation time.
    static func parse(_ body: Data, coordinate: Coordinate, fetchedAt: Date) throws(WeatherError) -> WeatherObservation
    {
        let reply = try WeatherHTTPClient.decode(Reply.self, from: body, provider: providerName)
        let ids = reply.weather?.compactMap(\.id) ?? []
        guard !ids.isEmpty || reply.main?.temp != nil else {
            throw .malformedReply(provider: providerName, reason: "neither weather[].id nor main.temp")
        }
        let observedAt = try WeatherHTTPClient.observationTime(reply.dt, provider: providerName)
        return WeatherObservation(
            condition: WeatherCodes.openWeatherMap(ids: ids), temperatureC: reply.main?.temp,
            coordinate: coordinate, observedAt: observedAt,
            fetchedAt: fetchedAt, provider: providerName)
    }

    // `cod` is a number on success and a string on some errors: it is not decoded; the HTTP status decides.
    private struct Reply: Decodable {
        struct Condition: Decodable { var id: Int? }
        struct Main: Decodable { var temp: Double? }
        var weather: [Condition]?
        var main: Main?
        var dt: Double
    }
}
