import ChestCore
import FoundationEssentials

/// Current weather from Open-Meteo's forecast API (no key; free for non-commercial use, data CC BY 4.0).
///
/// Sends `GET {base}/v1/forecast?latitude=LAT&longitude=LON&current=weather_code,temperature_2m&timeformat=unixtime`
/// with the coordinates rounded to 0.01°, and nothing else about the user.
package final class OpenMeteoProvider: WeatherProvider, CustomStringConvertible {
    /// https://api.open-meteo.com
    package static let defaultBaseURL = URL(string: "https://api.open-meteo.com")!
    package static let providerName = "open-meteo"

    package let name = OpenMeteoProvider.providerName
    /// The scheme, host and optional path prefix that `/v1/forecast` is appended to.
    package let baseURL: URL
    private let http: WeatherHTTPClient

    /// - Parameters:
    ///   - baseURL: replaced by `--weather-url` or `chest config weather.url` (tests use a local server).
    ///   - timeout: the longest wait for an answer, in seconds.
    package init(baseURL: URL = OpenMeteoProvider.defaultBaseURL, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        http = WeatherHTTPClient(provider: OpenMeteoProvider.providerName, timeout: timeout, secret: nil)
    }

    package var description: String { "Open-Meteo at \(baseURL.absoluteString)" }

    package func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherObservation {
        let rounded = coordinate.rounded(places: WeatherSchedule.coordinatePlaces)
        guard
            let url = WeatherHTTPClient.url(
                base: baseURL, path: "/v1/forecast",
                query: [
                    ("latitude", WeatherHTTPClient.twoDecimals(rounded.latitude)),
                    ("longitude", WeatherHTTPClient.twoDecimals(rounded.longitude)),
                    ("current", "weather_code,temperature_2m"),
                    ("timeformat", "unixtime"),
                ])
        else { throw .unreachable(provider: name, reason: "the weather URL is not valid") }
        let reply = try await http.get(url)
        guard reply.status == 200 else { throw http.statusError(reply, now: now) }
        return try Self.parse(reply.body, coordinate: rounded, fetchedAt: now, clean: http.clean)
    }

    /// Reads a 200 body. `current.time` is unix seconds as requested, or, from a server that ignored
    /// `timeformat`, ISO 8601 without a zone in the reply's `utc_offset_seconds`.
    static func parse(
        _ body: Data, coordinate: Coordinate, fetchedAt: Date,
        clean: (String) -> String = { $0 }
    ) throws(WeatherError) -> WeatherObservation {
        let reply = try WeatherHTTPClient.decode(Reply.self, from: body, provider: providerName)
        guard let current = reply.current else {
            throw .malformedReply(provider: providerName, reason: "no \"current\" object")
        }
        if let unit = reply.currentUnits?["temperature_2m"], unit != "°C" {
            throw .malformedReply(provider: providerName, reason: "temperature in \(clean(unit)), not °C")
        }
        guard current.weatherCode != nil || current.temperature != nil else {
            throw .malformedReply(provider: providerName, reason: "neither weather_code nor temperature_2m")
        }
        let observedAt: Date
        switch current.time {
        case .unix(let seconds):
            observedAt = try WeatherHTTPClient.observationTime(seconds, provider: providerName)
        case .local(let text):
            guard let date = localTime(text, utcOffset: reply.utcOffsetSeconds ?? 0) else {
                throw .malformedReply(provider: providerName, reason: "unreadable time \"\(clean(text))\"")
            }
            observedAt = date
        }
        return WeatherObservation(
            condition: current.weatherCode.flatMap(WeatherCodes.openMeteo),
            temperatureC: current.temperature, coordinate: coordinate, observedAt: observedAt,
            fetchedAt: fetchedAt, provider: providerName)
    }

    /// "2026-04-04T18:45" (Open-Meteo's `timeformat=iso8601`: minutes, no zone) read as a time `utcOffset` seconds
    /// ahead of UTC; nil for anything else or an impossible date. An offset beyond ±18 h, which no zone has, counts
    /// as 0.
    static func localTime(_ text: String, utcOffset: Int) -> Date? {
        let bytes = Array(text.utf8)
        let shape = Array("dddd-dd-ddTdd:dd".utf8)
        guard bytes.count == shape.count else { return nil }
        for (byte, expected) in zip(bytes, shape) {
            guard expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected else { return nil }
        }
        // ISO8601.parse checks the ranges (month length, leap years, hours, minutes).
        guard let asUTC = ISO8601.parse(text + ":00Z") else { return nil }
        let offset = abs(utcOffset) <= 18 * 3600 ? utcOffset : 0
        return asUTC.addingTimeInterval(-TimeInterval(offset))
    }

    private struct Reply: Decodable {
        var current: Current?
        var currentUnits: [String: String]?
        var utcOffsetSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case current
            case currentUnits = "current_units"
            case utcOffsetSeconds = "utc_offset_seconds"
        }
    }

    private struct Current: Decodable {
        enum Time { case unix(Double), local(String) }
        var time: Time
        var weatherCode: Int?
        var temperature: Double?

        enum CodingKeys: String, CodingKey {
            case time
            case weatherCode = "weather_code"
            case temperature = "temperature_2m"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let seconds = try? container.decode(Double.self, forKey: .time) {
                time = .unix(seconds)
            } else {
                time = .local(try container.decode(String.self, forKey: .time))
            }
            // WMO codes are integers; a float such as 3.0 is accepted, 3.5 is not a code.
            weatherCode = try container.decodeIfPresent(Double.self, forKey: .weatherCode).flatMap { Int(exactly: $0) }
            temperature = try container.decodeIfPresent(Double.self, forKey: .temperature)
        }
    }
}
