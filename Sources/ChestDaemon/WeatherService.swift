import ChestCore
import ChestIO
import FoundationEssentials

/// The daemon's weather adapter: asks the configured provider (Open-Meteo, or OpenWeatherMap with a key) through
/// the `chest-weather` helper, and keeps the readings in a cache in the chest directory so that a restart offline
/// still has the last one.
final class WeatherService {
    let providerName: String
    private let key: String?
    private let baseURL: String?
    /// The helper: chestd's own program called `chest-weather` (HelperProcess).
    private let helper = "chest-weather"
    private var cache: WeatherCacheFile
    private let log: Log

    /// A helper still running after this long is killed and the attempt counts as a failure.
    static let timeout = 30.0

    init(settings: Settings, cachePath: String, log: Log) {
        self.log = log
        key = settings.weatherKey
        baseURL = settings.weatherURL
        providerName = key == nil ? "open-meteo" : "openweathermap"
        if let text = baseURL, URL(string: text)?.scheme == nil {
            log.warning("weather.url \"\(text)\" is not a URL; requests will fail until it is fixed")
        }
        do {
            cache = try WeatherCacheFile.load(from: cachePath)
        } catch {
            log.warning("\(error); starting with an empty weather cache")
            cache = WeatherCacheFile(path: cachePath)
        }
    }

    /// The newest cached reading from the current provider.
    func restore() -> WeatherObservation? { cache.latest(provider: providerName) }

    /// Asks the provider off the daemon's loop; `done` feeds the answer back as an event.
    func fetch(at coordinate: Coordinate, done: @escaping @Sendable (WeatherFetchReply) -> Void) {
        let request = WeatherFetchRequest(provider: providerName, key: key, baseURL: baseURL, coordinate: coordinate)
        let helper = self.helper
        log.debug("asking \(providerName) for the weather at \(coordinate.latitude), \(coordinate.longitude)")
        Task { done(await WeatherService.ask(helper, request)) }
    }

    private static func ask(_ helper: String, _ request: WeatherFetchRequest) async -> WeatherFetchReply {
        let answer = await HelperProcess.run(helper, input: ChestJSON.line(request), timeout: timeout)
        guard case let .success(data) = answer else {
            let why = (try? answer.get()).map { _ in "" } ?? "\(answer)"
            return .failed(reason: "the weather helper failed: \(why)", retryAfter: nil, offline: false)
        }
        return (try? ChestJSON.decoder().decode(WeatherFetchReply.self, from: data))
            ?? .failed(reason: "the weather helper gave no answer", retryAfter: nil, offline: false)
    }

    /// Keeps a new reading (durably) and turns the answer into the engine's input.
    func record(_ reply: WeatherFetchReply, now: Now) -> Engine.Input {
        switch reply {
        case let .observed(observation):
            cache.record(observation)
            do {
                try cache.save()
            } catch {
                log.warning("cannot keep the weather reading: \(error)")
            }
            return .weatherFetched(observation, now)
        case let .failed(reason, retryAfter, offline):
            log.warning("weather: \(reason)")
            return .weatherFailed(reason: reason, retryAfter: retryAfter, offline: offline, now)
        }
    }
}
