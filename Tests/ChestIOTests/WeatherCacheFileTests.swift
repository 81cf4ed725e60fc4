import ChestCore
import ChestIO
import ChestTestSupport
import ChestWeather
import Foundation
import Glibc
import Testing

@Suite(.timeLimit(.minutes(1)))
struct WeatherCacheFileTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000.123)
    let here = Coordinate(latitude: 48.86, longitude: 2.29)

    func temporaryDirectory() throws -> String {
        try Directory.makeTemporary("chest-weather")
    }

    func observation(
        _ condition: WeatherCondition?, at coordinate: Coordinate, provider: String = "open-meteo",
        fetched: Date
    ) -> WeatherObservation {
        WeatherObservation(
            condition: condition, temperatureC: condition == nil ? nil : -1.5, coordinate: coordinate,
            observedAt: fetched - 600, fetchedAt: fetched, provider: provider)
    }

    /// A daemon restarted while offline still has its last reading, with its age.
    @Test func aReadingSurvivesARestart() throws {
        let path = try temporaryDirectory() + "/weather.json"
        var cache = try WeatherCacheFile.load(from: path)
        #expect(cache.observations.isEmpty)
        let snowy = observation(.snowy, at: here, fetched: now)
        let unknown = observation(
            nil, at: Coordinate(latitude: 45.76, longitude: 4.84), provider: "openweathermap",
            fetched: now - 60)
        cache.record(unknown)
        cache.record(snowy)
        try cache.save()

        let restarted = try WeatherCacheFile.load(from: path)
        #expect(restarted.observations == [snowy, unknown])
        #expect(restarted.latest() == snowy)
        #expect(restarted.latest(provider: "openweathermap") == unknown)
        #expect(
            restarted.observation(provider: "open-meteo", at: Coordinate(latitude: 48.861, longitude: 2.288)) == snowy)
        #expect(WeatherSchedule().reading(among: restarted.observations, at: here, now: now + 60) == .known(snowy))

        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func aNewReadingReplacesTheOneForTheSameProviderAndPlace() {
        var cache = WeatherCacheFile(path: "/nonexistent/weather.json")
        cache.record(observation(.snowy, at: here, fetched: now))
        cache.record(observation(.clear, at: here, fetched: now + 600))
        cache.record(observation(.rainy, at: here, provider: "openweathermap", fetched: now + 601))
        #expect(cache.observations.map(\.condition) == [.rainy, .clear])
    }

    @Test func theCacheKeepsAtMostItsCapacityDroppingTheOldest() {
        var cache = WeatherCacheFile(path: "/nonexistent/weather.json")
        for i in 0..<(WeatherCacheFile.capacity + 10) {
            cache.record(
                observation(
                    .cloudy, at: Coordinate(latitude: Double(i) / 10, longitude: 0),
                    fetched: now + Double(i)))
        }
        #expect(cache.observations.count == WeatherCacheFile.capacity)
        #expect(cache.observations.last?.fetchedAt == now + 10)
    }

    @Test func aDamagedFileIsReportedNotTrusted() throws {
        let path = try temporaryDirectory() + "/weather.json"
        try Data("{\"version\":1,\"observations\":[{\"oops\"".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: WeatherCacheError.malformed(path: path)) { try WeatherCacheFile.load(from: path) }
        try Data("{\"version\":9,\"observations\":[]}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: WeatherCacheError.unsupportedVersion(path: path, 9)) { try WeatherCacheFile.load(from: path) }
    }

    /// The whole path: fetch from the loopback server, cache, restart, and the reading is still there.
    @Test func aFetchedReadingIsCachedAcrossARestart() async throws {
        let path = try temporaryDirectory() + "/weather.json"
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date(timeIntervalSince1970: 1_790_000_000))))
        let fetched = try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        var cache = try WeatherCacheFile.load(from: path)
        cache.record(fetched)
        try cache.save()
        server.stop()
        #expect(try WeatherCacheFile.load(from: path).latest() == fetched)
    }
}
