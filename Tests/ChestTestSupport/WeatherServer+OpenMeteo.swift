import Foundation

extension WeatherServer {
    /// Variables Open-Meteo accepts in `current=` that the server knows; any other name is a 400, as the real API does.
    static let openMeteoVariables: Set<String> = [
        "temperature_2m", "weather_code", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation",
        "rain", "showers", "snowfall", "cloud_cover", "pressure_msl", "surface_pressure", "wind_speed_10m",
        "wind_direction_10m", "wind_gusts_10m",
    ]

    /// Open-Meteo's answer to `GET /v1/forecast`: compact JSON, errors as `{"error":true,"reason":"…"}`.
    static func openMeteoAnswer(_ request: Request, scenario: Scenario) -> Response {
        func error(_ status: Int, _ reason: String) -> Response {
            Response(status: status, body: "{\"error\":true,\"reason\":\(jsonString(reason))}")
        }
        switch scenario {
        case .rateLimited(let retryAfter, let reason):
            var response = error(429, reason ?? "Minutely API request limit exceeded. Please try again in one minute.")
            if let retryAfter { response.headers["Retry-After"] = "\(retryAfter)" }
            return response
        case .badKey:
            return error(401, "Invalid API key")
        case .badRequest(let reason):
            return error(400, reason)
        case .weather(let weather):
            return openMeteoWeather(request, weather, error: error)
        case .serverError, .raw, .bytes, .hang, .slow:
            return error(500, "unexpected scenario")
        }
    }

    private static func openMeteoWeather(
        _ request: Request, _ weather: Weather,
        error: (Int, String) -> Response
    ) -> Response {
        // The docs do not show the reason for a missing coordinate; the out-of-range reasons are the observed ones.
        guard let latitudeText = request[parameter: "latitude"], let longitudeText = request[parameter: "longitude"]
        else {
            return error(400, "Parameter 'latitude' and 'longitude' are required")
        }
        guard let latitude = Double(latitudeText), (-90...90).contains(latitude) else {
            return error(400, "Latitude must be in range of -90 to 90°. Given: \(Double(latitudeText) ?? .nan).")
        }
        guard let longitude = Double(longitudeText), (-180...180).contains(longitude) else {
            return error(400, "Longitude must be in range of -180 to 180°. Given: \(Double(longitudeText) ?? .nan).")
        }
        let variables = (request[parameter: "current"] ?? "").split(separator: ",").map(String.init)
        if let unknown = variables.first(where: { !openMeteoVariables.contains($0) }) {
            return error(400, "Cannot initialize WeatherVariable from invalid String value \(unknown) for key current")
        }
        let fahrenheit = request[parameter: "temperature_unit"] == "fahrenheit"
        let unixTime = request[parameter: "timeformat"] == "unixtime"

        var units = ["\"time\":\(jsonString(unixTime ? "unixtime" : "iso8601"))", "\"interval\":\"seconds\""]
        let seconds = Int(weather.observedAt.timeIntervalSince1970.rounded(.down))
        var values = ["\"time\":\(unixTime ? "\(seconds)" : jsonString(isoMinute(seconds)))", "\"interval\":900"]
        for variable in variables {
            switch variable {
            case "weather_code":
                units.append("\"weather_code\":\"wmo code\"")
                values.append("\"weather_code\":\(weather.openMeteoCode.map(String.init) ?? "null")")
            case "temperature_2m":
                units.append("\"temperature_2m\":\(jsonString(fahrenheit ? "°F" : "°C"))")
                let value = weather.temperatureC.map { fahrenheit ? (($0 * 9 / 5 + 32) * 10).rounded() / 10 : $0 }
                values.append("\"temperature_2m\":\(jsonNumber(value))")
            default:
                units.append("\"\(variable)\":\"\"")
                values.append("\"\(variable)\":0")
            }
        }
        // The reply names the centre of the model's grid cell, a little off the request (float32 in the real API).
        let body =
            "{\"latitude\":\(Float(latitude + 0.004)),\"longitude\":\(Float(longitude - 0.003)),"
            + "\"generationtime_ms\":0.0231266021728516,\"utc_offset_seconds\":0,\"timezone\":\"GMT\","
            + "\"timezone_abbreviation\":\"GMT\",\"elevation\":38.0,"
            + "\"current_units\":{\(units.joined(separator: ","))},\"current\":{\(values.joined(separator: ","))}}"
        return Response(status: 200, body: body)
    }

    /// "2026-04-04T18:45": ISO 8601 to the minute, without zone, in GMT (Open-Meteo's default `timeformat`).
    private static func isoMinute(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
