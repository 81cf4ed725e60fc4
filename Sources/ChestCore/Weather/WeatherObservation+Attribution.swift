extension WeatherObservation {
    /// The credit the provider's licence asks for wherever its data is shown, or `nil` for an unknown provider.
    /// Open-Meteo: CC BY 4.0; OpenWeatherMap: CC BY-SA 4.0.
    package var attribution: String? { Self.attribution(provider: provider) }

    /// The credit for a provider name ("open-meteo", "openweathermap").
    package static func attribution(provider: String) -> String? {
        switch provider {
        case "open-meteo": "Weather data by Open-Meteo.com (https://open-meteo.com/, CC BY 4.0)"
        case "openweathermap": "Weather data by OpenWeather (https://openweathermap.org/, CC BY-SA 4.0)"
        default: nil
        }
    }
}
