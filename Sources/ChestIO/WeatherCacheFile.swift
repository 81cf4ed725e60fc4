import ChestCore
import FoundationEssentials
import Glibc

/// The last weather readings, one per provider and position rounded to 0.01°, kept in a file so a daemon
/// restarted offline still has them (docs/DESIGN.md "Weather").
///
/// The file is JSON, `{"version": 1, "observations": [WeatherObservation…]}` with ISO 8601 dates, replaced
/// atomically on every save.
package struct WeatherCacheFile: Sendable {
    /// The most readings kept; the least recently fetched go first.
    package static let capacity = 64
    package static let version = 1

    package let path: String
    /// The readings, newest fetch first.
    package private(set) var observations: [WeatherObservation]

    /// An empty cache that will save to `path`.
    package init(path: String) {
        self.path = path
        observations = []
    }

    /// Reads the cache at `path`; a missing file is an empty cache.
    /// - Throws: `WeatherCacheError` when the file exists but cannot be read or is not a cache file.
    package static func load(from path: String) throws(WeatherCacheError) -> WeatherCacheFile {
        var cache = WeatherCacheFile(path: path)
        guard FileManager.default.fileExists(atPath: path) else { return cache }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        let stored: Stored
        do {
            stored = try decoder.decode(Stored.self, from: data)
        } catch {
            throw .malformed(path: path)
        }
        guard stored.version == version else { throw .unsupportedVersion(path: path, stored.version) }
        for observation in stored.observations { cache.record(observation) }
        return cache
    }

    /// Adds a reading, replacing the one for the same provider and rounded position.
    package mutating func record(_ observation: WeatherObservation) {
        let key = Key(observation)
        observations.removeAll { Key($0) == key }
        observations.append(observation)
        observations.sort { $0.fetchedAt > $1.fetchedAt }
        if observations.count > Self.capacity { observations.removeLast(observations.count - Self.capacity) }
    }

    /// The reading for exactly this provider and position (rounded to 0.01° before comparing).
    package func observation(provider: String, at coordinate: Coordinate) -> WeatherObservation? {
        let key = Key(provider: provider, coordinate: coordinate)
        return observations.first { Key($0) == key }
    }

    /// The newest fetched reading, from `provider` when given: what `chest status` shows.
    package func latest(provider: String? = nil) -> WeatherObservation? {
        observations.first { provider == nil || $0.provider == provider }
    }

    /// Writes the cache atomically (temporary file, fsync, rename, directory fsync), mode 0600.
    package func save() throws(SystemCallError) {
        let stored = Stored(version: Self.version, observations: observations)
        // Encoding plain values with ISO 8601 dates cannot fail.
        let data = (try? Self.encoder.encode(stored)) ?? Data()
        try AtomicFile.write(data, to: path)
    }

    private struct Key: Hashable {
        var provider: String
        var latitude: Int
        var longitude: Int

        init(provider: String, coordinate: Coordinate) {
            self.provider = provider
            latitude = Int((coordinate.latitude * 100).rounded())
            longitude = Int((coordinate.longitude * 100).rounded())
        }

        init(_ observation: WeatherObservation) {
            self.init(provider: observation.provider, coordinate: observation.coordinate)
        }
    }

    private struct Stored: Codable {
        var version: Int
        var observations: [WeatherObservation]
    }

    private static var encoder: JSONEncoder { ChestJSON.encoder(pretty: true) }

    private static var decoder: JSONDecoder { ChestJSON.decoder() }
}

/// Why the weather cache file could not be loaded. The daemon logs it and starts with an empty cache.
package enum WeatherCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case malformed(path: String)
    case unsupportedVersion(path: String, Int)

    package var description: String {
        switch self {
        case .unreadable(let path): "cannot read the weather cache \(path)"
        case .malformed(let path): "the weather cache \(path) is not a weather cache file"
        case .unsupportedVersion(let path, let version):
            "the weather cache \(path) has version \(version); this chestd reads version \(WeatherCacheFile.version)"
        }
    }
}
