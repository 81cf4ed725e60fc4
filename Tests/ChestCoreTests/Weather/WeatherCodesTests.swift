import ChestCore
import Testing

/// Every code each provider documents, with the condition docs/WEATHER.md promises for it.
@Suite struct WeatherCodesTests {
    static let openMeteoTable: [(Int, WeatherCondition)] = [
        (0, .clear),
        (1, .cloudy), (2, .cloudy), (3, .cloudy),
        (45, .cloudy), (48, .cloudy),
        (51, .rainy), (53, .rainy), (55, .rainy),
        (56, .rainy), (57, .rainy),
        (61, .rainy), (63, .rainy), (65, .rainy),
        (66, .rainy), (67, .rainy),
        (71, .snowy), (73, .snowy), (75, .snowy),
        (77, .snowy),
        (80, .rainy), (81, .rainy), (82, .rainy),
        (85, .snowy), (86, .snowy),
        (95, .thundery), (96, .thundery), (99, .thundery),
    ]

    static let openWeatherMapTable: [(Int, WeatherCondition)] = [
        (200, .thundery), (201, .thundery), (202, .thundery), (210, .thundery), (211, .thundery),
        (212, .thundery), (221, .thundery), (230, .thundery), (231, .thundery), (232, .thundery),
        (300, .rainy), (301, .rainy), (302, .rainy), (310, .rainy), (311, .rainy), (312, .rainy),
        (313, .rainy), (314, .rainy), (321, .rainy),
        (500, .rainy), (501, .rainy), (502, .rainy), (503, .rainy), (504, .rainy), (511, .rainy),
        (520, .rainy), (521, .rainy), (522, .rainy), (531, .rainy),
        (600, .snowy), (601, .snowy), (602, .snowy), (611, .snowy), (612, .snowy), (613, .snowy),
        (615, .snowy), (616, .snowy), (620, .snowy), (621, .snowy), (622, .snowy),
        (701, .cloudy), (711, .cloudy), (721, .cloudy), (731, .cloudy), (741, .cloudy), (751, .cloudy),
        (761, .cloudy), (762, .cloudy), (771, .cloudy),
        (781, .thundery),
        (800, .clear),
        (801, .cloudy), (802, .cloudy), (803, .cloudy), (804, .cloudy),
    ]

    @Test(arguments: openMeteoTable)
    func openMeteoCode(_ code: Int, _ condition: WeatherCondition) {
        #expect(WeatherCodes.openMeteo(code) == condition)
    }

    @Test(arguments: openWeatherMapTable)
    func openWeatherMapID(_ id: Int, _ condition: WeatherCondition) {
        #expect(WeatherCodes.openWeatherMap(id) == condition)
    }

    /// Guards the "total and documented" promise: nothing outside the tables maps to a condition.
    @Test func undocumentedOpenMeteoCodesAreUnknown() {
        let documented = Set(Self.openMeteoTable.map(\.0))
        for code in -5...300 where !documented.contains(code) {
            #expect(WeatherCodes.openMeteo(code) == nil, "WMO \(code)")
        }
    }

    @Test func undocumentedOpenWeatherMapIDsAreUnknown() {
        let documented = Set(Self.openWeatherMapTable.map(\.0))
        for id in -5...1_000 where !documented.contains(id) {
            #expect(WeatherCodes.openWeatherMap(id) == nil, "id \(id)")
        }
    }

    @Test func theTablesCoverEveryDocumentedCode() {
        #expect(Self.openMeteoTable.count == 28)
        #expect(Self.openWeatherMapTable.count == 55)
    }

    @Test func severalOpenWeatherMapConditionsGiveTheMostSevereWhateverTheOrder() {
        #expect(WeatherCodes.openWeatherMap(ids: [701, 500]) == .rainy)
        #expect(WeatherCodes.openWeatherMap(ids: [500, 701]) == .rainy)
        #expect(WeatherCodes.openWeatherMap(ids: [600, 211, 800]) == .thundery)
        #expect(WeatherCodes.openWeatherMap(ids: [999, 804]) == .cloudy)
        #expect(WeatherCodes.openWeatherMap(ids: [999]) == nil)
        #expect(WeatherCodes.openWeatherMap(ids: []) == nil)
    }

    @Test func theJudgementCalls() {
        #expect(WeatherCodes.openMeteo(51) == .rainy, "drizzle is rainy")
        #expect(WeatherCodes.openWeatherMap(300) == .rainy, "drizzle is rainy")
        #expect(WeatherCodes.openMeteo(45) == .cloudy, "fog is cloudy")
        #expect(WeatherCodes.openWeatherMap(721) == .cloudy, "haze is cloudy")
        #expect(WeatherCodes.openMeteo(1) == .cloudy, "mainly clear is cloudy")
        #expect(WeatherCodes.openWeatherMap(611) == .snowy, "sleet is snowy")
        #expect(WeatherCodes.openMeteo(66) == .rainy, "freezing rain is rainy")
        #expect(WeatherCodes.openWeatherMap(511) == .rainy, "freezing rain is rainy")
    }
}

@Suite struct WeatherAttributionTests {
    /// Open-Meteo's CC BY 4.0 licence asks for exactly this credit next to its data.
    @Test func eachProviderHasItsCredit() {
        #expect(
            WeatherObservation.attribution(provider: "open-meteo")?.hasPrefix("Weather data by Open-Meteo.com") == true)
        #expect(WeatherObservation.attribution(provider: "openweathermap")?.contains("OpenWeather") == true)
        #expect(WeatherObservation.attribution(provider: "elsewhere") == nil)
    }
}
