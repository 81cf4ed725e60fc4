/// What chestd asks its weather helper (`chest-weather`), one JSON object on the helper's standard input.
/// The network code lives in that short-lived process, so the daemon never loads an HTTP stack.
public struct WeatherFetchRequest: Hashable, Sendable, Codable {
    /// "open-meteo" or "openweathermap".
    public var provider: String
    /// OpenWeatherMap's API key; never logged.
    public var key: String?
    /// A replacement base URL (a mirror, or a test server).
    public var baseURL: String?
    /// Rounded to 0.01° by the caller: nothing more precise leaves the machine.
    public var coordinate: Coordinate

    public init(provider: String, key: String?, baseURL: String?, coordinate: Coordinate) {
        self.provider = provider
        self.key = key
        self.baseURL = baseURL
        self.coordinate = coordinate
    }
}

/// The helper's answer on its standard output: a reading, or why there is none.
public struct WeatherFetchReply: Hashable, Sendable, Codable {
    public var observation: WeatherObservation?
    /// A sentence for the log and `status`, without the key.
    public var error: String?
    /// Seconds the provider asked us to wait (a 429's Retry-After).
    public var retryAfter: Double?
    /// True when the provider could not be reached at all.
    public var offline: Bool?

    public init(observation: WeatherObservation) {
        self.observation = observation
    }

    public init(error: String, retryAfter: Double?, offline: Bool) {
        self.error = error
        self.retryAfter = retryAfter
        self.offline = offline
    }
}
