/// What chestd asks its weather helper (`chest-weather`), one JSON object on the helper's standard input.
/// The network code lives in that short-lived process, so the daemon never loads an HTTP stack.
package struct WeatherFetchRequest: Hashable, Sendable, Codable {
    /// "open-meteo" or "openweathermap".
    package var provider: String
    /// OpenWeatherMap's API key; never logged.
    package var key: String?
    /// A replacement base URL (a mirror, or a test server).
    package var baseURL: String?
    /// Rounded to 0.01° by the caller: nothing more precise leaves the machine.
    package var coordinate: Coordinate

    package init(provider: String, key: String?, baseURL: String?, coordinate: Coordinate) {
        self.provider = provider
        self.key = key
        self.baseURL = baseURL
        self.coordinate = coordinate
    }
}

/// The helper's answer on its standard output: a reading, or why there is none. On the wire one object,
/// `{"observation":…}` or `{"error":…,"retryAfter":…,"offline":…}` (docs/WEATHER.md).
package enum WeatherFetchReply: Hashable, Sendable, Codable {
    case observed(WeatherObservation)
    /// `reason` is a sentence for the log and `status`, without the key; `retryAfter` the seconds the provider asked
    /// us to wait (a 429's Retry-After); `offline` when the provider could not be reached at all.
    case failed(reason: String, retryAfter: Double?, offline: Bool)

    private enum CodingKeys: String, CodingKey { case observation, error, retryAfter, offline }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let observation = try container.decodeIfPresent(WeatherObservation.self, forKey: .observation) {
            self = .observed(observation)
        } else {
            self = .failed(
                reason: try container.decodeIfPresent(String.self, forKey: .error) ?? "no reading",
                retryAfter: try container.decodeIfPresent(Double.self, forKey: .retryAfter),
                offline: try container.decodeIfPresent(Bool.self, forKey: .offline) ?? false)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .observed(observation):
            try container.encode(observation, forKey: .observation)
        case let .failed(reason, retryAfter, offline):
            try container.encode(reason, forKey: .error)
            try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
            try container.encode(offline, forKey: .offline)
        }
    }
}
