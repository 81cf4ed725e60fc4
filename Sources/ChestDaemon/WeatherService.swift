import ChestCore
import ChestIO
import Foundation

/// The daemon's weather adapter: the configured provider (Open-Meteo, or OpenWeatherMap with a key) and the
/// reading cache kept in the chest directory so that a restart offline still has the last reading.
final class WeatherService {
    let provider: any WeatherProvider
    private var cache: WeatherCacheFile
    private let log: Log

    init(settings: Settings, cachePath: String, log: Log) {
        self.log = log
        let url = settings.weatherURL.flatMap(URL.init(string:))
        if let text = settings.weatherURL, url == nil { log.warning("weather.url \"\(text)\" is not a URL; using the provider's own") }
        if let key = settings.weatherKey {
            provider = OpenWeatherMapProvider(key: key, baseURL: url ?? OpenWeatherMapProvider.defaultBaseURL)
        } else {
            provider = OpenMeteoProvider(baseURL: url ?? OpenMeteoProvider.defaultBaseURL)
        }
        do {
            cache = try WeatherCacheFile.load(from: cachePath)
        } catch {
            log.warning("\(error); starting with an empty weather cache")
            cache = WeatherCacheFile(path: cachePath)
        }
    }

    /// The newest cached reading from the current provider.
    func restore() -> WeatherObservation? { cache.latest(provider: provider.name) }

    /// Asks the provider off the daemon's loop; `done` feeds the answer back as an event.
    func fetch(at coordinate: Coordinate, done: @escaping @Sendable (Result<WeatherObservation, WeatherError>) -> Void) {
        let provider = self.provider
        log.debug("asking \(provider.name) for the weather at \(coordinate.latitude), \(coordinate.longitude)")
        Task {
            do throws(WeatherError) {
                done(.success(try await provider.fetch(at: coordinate, now: Date())))
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Keeps a new reading (durably) and turns the answer into the engine's input.
    func record(_ result: Result<WeatherObservation, WeatherError>, now: Now) -> Engine.Input {
        switch result {
        case let .success(observation):
            cache.record(observation)
            do {
                try cache.save()
            } catch {
                log.warning("cannot keep the weather reading: \(error)")
            }
            return .weatherFetched(observation, now)
        case let .failure(error):
            log.warning("weather: \(error)")
            return .weatherFailed(reason: error.description, retryAfter: error.retryAfter, offline: error.isOffline, now)
        }
    }
}
