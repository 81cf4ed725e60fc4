/// How each provider's condition codes map onto the five conditions a weather lock can ask for (docs/DESIGN.md "Weather").
///
/// The mapping is total over every code the providers document; a code they do not document maps to `nil`,
/// which is "unknown" and never opens a weather lock. docs/WEATHER.md prints both tables in full.
///
/// Judgement calls, made once here so both providers agree:
/// - Drizzle is rainy: Open-Meteo's drizzle codes only mean rain under 1.3 mm/h.
/// - Fog, mist, haze, smoke, dust, sand, volcanic ash and squalls are cloudy: the sky is hidden, and nothing falls.
/// - Freezing drizzle and freezing rain are rainy (liquid when they fall; OpenWeatherMap files 511 under "Rain").
/// - Sleet and rain-and-snow are snowy (frozen precipitation; OpenWeatherMap files 611–616 under "Snow").
/// - A tornado is thundery: the severe convective weather a player would file with storms.
/// - Open-Meteo's "mainly clear" (code 1) is cloudy: it means 20–50 % cloud cover, which OpenWeatherMap reports as
///   "few" or "scattered clouds" (801, 802), never as "clear sky" (800). Clear is cloudless on both providers.
package enum WeatherCodes {
    /// The condition for a WMO weather interpretation code, as Open-Meteo's `weather_code` reports it.
    /// Returns `nil` for a code Open-Meteo does not document.
    package static func openMeteo(_ wmoCode: Int) -> WeatherCondition? {
        switch wmoCode {
        case 0: .clear
        case 1, 2, 3: .cloudy  // mainly clear, partly cloudy, overcast
        case 45, 48: .cloudy  // fog, depositing rime fog
        case 51, 53, 55: .rainy  // drizzle
        case 56, 57: .rainy  // freezing drizzle
        case 61, 63, 65: .rainy  // rain
        case 66, 67: .rainy  // freezing rain
        case 71, 73, 75: .snowy  // snow fall
        case 77: .snowy  // snow grains
        case 80, 81, 82: .rainy  // rain showers
        case 85, 86: .snowy  // snow showers
        case 95, 96, 99: .thundery  // thunderstorm, with hail
        default: nil
        }
    }

    /// The condition for an OpenWeatherMap condition id (`weather[].id`).
    /// Returns `nil` for an id OpenWeatherMap does not document.
    package static func openWeatherMap(_ id: Int) -> WeatherCondition? {
        switch id {
        case 200, 201, 202, 210, 211, 212, 221, 230, 231, 232: .thundery
        case 300, 301, 302, 310, 311, 312, 313, 314, 321: .rainy  // drizzle
        case 500, 501, 502, 503, 504, 511, 520, 521, 522, 531: .rainy  // rain, freezing rain, showers
        case 600, 601, 602, 611, 612, 613, 615, 616, 620, 621, 622: .snowy  // snow, sleet, rain and snow
        case 701, 711, 721, 731, 741, 751, 761, 762, 771: .cloudy  // mist, smoke, haze, dust, fog, sand, ash, squalls
        case 781: .thundery  // tornado
        case 800: .clear
        case 801, 802, 803, 804: .cloudy
        default: nil
        }
    }

    /// The condition for a whole OpenWeatherMap `weather` array, which can list several (mist and rain): the most
    /// severe known one, so the answer does not depend on the order. `nil` when no id is known.
    package static func openWeatherMap(ids: [Int]) -> WeatherCondition? {
        ids.compactMap(openWeatherMap).max { $0.severity < $1.severity }
    }
}

extension WeatherCondition {
    /// Precedence when a provider reports several conditions at once: thundery > snowy > rainy > cloudy > clear.
    package var severity: Int {
        switch self {
        case .clear: 0
        case .cloudy: 1
        case .rainy: 2
        case .snowy: 3
        case .thundery: 4
        }
    }
}
