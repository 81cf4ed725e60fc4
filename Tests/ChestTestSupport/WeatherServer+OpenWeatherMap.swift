import Foundation

extension WeatherServer {
    /// OpenWeatherMap's condition table: id → (main, description, day icon).
    static let openWeatherMapConditions: [Int: (main: String, description: String, icon: String)] = [
        200: ("Thunderstorm", "thunderstorm with light rain", "11d"),
        201: ("Thunderstorm", "thunderstorm with rain", "11d"),
        202: ("Thunderstorm", "thunderstorm with heavy rain", "11d"),
        210: ("Thunderstorm", "light thunderstorm", "11d"),
        211: ("Thunderstorm", "thunderstorm", "11d"),
        212: ("Thunderstorm", "heavy thunderstorm", "11d"),
        221: ("Thunderstorm", "ragged thunderstorm", "11d"),
        230: ("Thunderstorm", "thunderstorm with light drizzle", "11d"),
        231: ("Thunderstorm", "thunderstorm with drizzle", "11d"),
        232: ("Thunderstorm", "thunderstorm with heavy drizzle", "11d"),
        300: ("Drizzle", "light intensity drizzle", "09d"),
        301: ("Drizzle", "drizzle", "09d"),
        302: ("Drizzle", "heavy intensity drizzle", "09d"),
        310: ("Drizzle", "light intensity drizzle rain", "09d"),
        311: ("Drizzle", "drizzle rain", "09d"),
        312: ("Drizzle", "heavy intensity drizzle rain", "09d"),
        313: ("Drizzle", "shower rain and drizzle", "09d"),
        314: ("Drizzle", "heavy shower rain and drizzle", "09d"),
        321: ("Drizzle", "shower drizzle", "09d"),
        500: ("Rain", "light rain", "10d"),
        501: ("Rain", "moderate rain", "10d"),
        502: ("Rain", "heavy intensity rain", "10d"),
        503: ("Rain", "very heavy rain", "10d"),
        504: ("Rain", "extreme rain", "10d"),
        511: ("Rain", "freezing rain", "13d"),
        520: ("Rain", "light intensity shower rain", "09d"),
        521: ("Rain", "shower rain", "09d"),
        522: ("Rain", "heavy intensity shower rain", "09d"),
        531: ("Rain", "ragged shower rain", "09d"),
        600: ("Snow", "light snow", "13d"),
        601: ("Snow", "snow", "13d"),
        602: ("Snow", "heavy snow", "13d"),
        611: ("Snow", "sleet", "13d"),
        612: ("Snow", "light shower sleet", "13d"),
        613: ("Snow", "shower sleet", "13d"),
        615: ("Snow", "light rain and snow", "13d"),
        616: ("Snow", "rain and snow", "13d"),
        620: ("Snow", "light shower snow", "13d"),
        621: ("Snow", "shower snow", "13d"),
        622: ("Snow", "heavy shower snow", "13d"),
        701: ("Mist", "mist", "50d"),
        711: ("Smoke", "smoke", "50d"),
        721: ("Haze", "haze", "50d"),
        731: ("Dust", "sand/dust whirls", "50d"),
        741: ("Fog", "fog", "50d"),
        751: ("Sand", "sand", "50d"),
        761: ("Dust", "dust", "50d"),
        762: ("Ash", "volcanic ash", "50d"),
        771: ("Squall", "squalls", "50d"),
        781: ("Tornado", "tornado", "50d"),
        800: ("Clear", "clear sky", "01d"),
        801: ("Clouds", "few clouds", "02d"),
        802: ("Clouds", "scattered clouds", "03d"),
        803: ("Clouds", "broken clouds", "04d"),
        804: ("Clouds", "overcast clouds", "04d"),
    ]

    /// OpenWeatherMap's answer to `GET /data/2.5/weather`. The key is checked before anything else (a bad key with
    /// bad coordinates is a 401); `cod` is a number on 200, 401 and 429 and a string on 400 and 404.
    static func openWeatherMapAnswer(_ request: Request, scenario: Scenario, validKey: String?) -> Response {
        let key = request[parameter: "appid"] ?? ""
        let keyAccepted = !key.isEmpty && (validKey == nil || key == validKey)
        if !keyAccepted || scenario == .badKey {
            return Response(
                status: 401,
                body: "{\"cod\":401, \"message\": \"Invalid API key. Please see "
                    + "https://openweathermap.org/faq#error401 for more info.\"}")
        }
        switch scenario {
        case .rateLimited(let retryAfter, let reason):
            let message =
                reason ?? "Your account is temporary blocked due to exceeding of requests limitation of "
                + "your subscription type. Please choose the proper subscription https://openweathermap.org/price"
            var response = Response(status: 429, body: "{\"cod\":429, \"message\": \(jsonString(message))}")
            if let retryAfter { response.headers["Retry-After"] = "\(retryAfter)" }
            return response
        case .badRequest(let reason):
            return badRequest(reason)
        case .weather(let weather):
            return openWeatherMapWeather(request, weather)
        case .badKey, .serverError, .raw, .bytes, .hang, .slow:
            return Response(status: 500, body: "{\"cod\":500, \"message\": \"unexpected scenario\"}")
        }
    }

    private static func badRequest(_ message: String) -> Response {
        Response(status: 400, body: "{\"cod\":\"400\",\"message\":\(jsonString(message))}")
    }

    private static func openWeatherMapWeather(_ request: Request, _ weather: Weather) -> Response {
        guard let latitudeText = request[parameter: "lat"], let longitudeText = request[parameter: "lon"] else {
            return badRequest("Nothing to geocode")
        }
        guard let latitude = Double(latitudeText), (-90...90).contains(latitude) else {
            return badRequest("wrong latitude")
        }
        guard let longitude = Double(longitudeText), (-180...180).contains(longitude) else {
            return badRequest("wrong longitude")
        }
        // Without units=metric the temperature is in kelvin, the classic 273-degree bug.
        let convert: (Double) -> Double =
            switch request[parameter: "units"] {
            case "metric": { $0 }
            case "imperial": { (($0 * 9 / 5 + 32) * 100).rounded() / 100 }
            default: { (($0 + 273.15) * 100).rounded() / 100 }
            }
        let conditions = weather.openWeatherMapIDs.map { id in
            let known = openWeatherMapConditions[id] ?? (main: "Unknown", description: "unknown", icon: "01d")
            return "{\"id\":\(id),\"main\":\(jsonString(known.main)),\"description\":\(jsonString(known.description)),"
                + "\"icon\":\(jsonString(known.icon))}"
        }
        var main: [String] = []
        if let temperature = weather.temperatureC.map(convert) {
            main += [
                "\"temp\":\(jsonNumber(temperature))", "\"feels_like\":\(jsonNumber(temperature))",
                "\"temp_min\":\(jsonNumber(temperature))", "\"temp_max\":\(jsonNumber(temperature))",
            ]
        }
        main += ["\"pressure\":1015", "\"humidity\":64", "\"sea_level\":1015", "\"grnd_level\":933"]
        let dt = Int(weather.observedAt.timeIntervalSince1970.rounded(.down))
        let body =
            "{\"coord\":{\"lon\":\(longitude),\"lat\":\(latitude)},"
            + "\"weather\":[\(conditions.joined(separator: ","))],\"base\":\"stations\","
            + "\"main\":{\(main.joined(separator: ","))},\"visibility\":10000,"
            + "\"wind\":{\"speed\":0.62,\"deg\":349,\"gust\":1.18},\"clouds\":{\"all\":100},\"dt\":\(dt),"
            + "\"sys\":{\"type\":2,\"id\":2075663,\"country\":\"IT\",\"sunrise\":1661834187,\"sunset\":1661882248},"
            + "\"timezone\":7200,\"id\":3163858,\"name\":\"Zocca\",\"cod\":200}"
        return Response(status: 200, body: body)
    }
}
