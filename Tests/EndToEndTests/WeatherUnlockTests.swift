import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Weather and temperature locks with the built chestd, a real gpsd fed by gpsfake for the position, and a real
/// HTTP server on loopback answering as Open-Meteo and OpenWeatherMap document.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct WeatherUnlockTests {
    static let place = Coordinate(latitude: 46.5197, longitude: 6.6323)

    /// A receiver standing still at `place` for a good while.
    func standingStill() throws -> GPSFake {
        try GPSFake(walk: NMEAWalk(waypoints: [.init(Self.place, altitudeMSL: 500, hold: 600)], start: Date(), speed: 1),
                    delay: 0.05)
    }

    func world(_ server: WeatherServer, fake: GPSFake) -> ChestHarness {
        let world = ChestHarness()
        world.gpsd = "127.0.0.1:\(fake.port)"
        return world
    }

    func dropWeatherLocks(_ world: ChestHarness) throws {
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("snowy", [.weather(.snowy)], into: world.chest)
        try alice.drop("cold", [.temperature(Bounds(min: -5, max: 3))], into: world.chest)
    }

    @Test func aSnowyReadingOpensWeatherAndTemperatureLocks() throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date())))
        defer { server.stop() }
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try dropWeatherLocks(world)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("both open", timeout: 30) { try world.states() == ["snowy": "open", "cold": "open"] }
        let query = try #require(server.requests.first)
        #expect(query[parameter: "latitude"] == "46.52")
        #expect(query[parameter: "longitude"] == "6.63")
        let weather = try #require(try world.status()["weather"] as? [String: Any])
        #expect(weather["condition"] as? String == "snowy")
        #expect(weather["temperatureC"] as? Double == -1)
        #expect(weather["provider"] as? String == "open-meteo")
    }

    @Test func aClearReadingOpensNeitherAndSaysWhy() throws {
        let server = try WeatherServer(scenario: .weather(.clear(20, at: Date())))
        defer { server.stop() }
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try dropWeatherLocks(world)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"] is [String: Any] }
        #expect(try world.states() == ["snowy": "locked", "cold": "locked"])
        let snowy = try world.list().first { $0["title"] as? String == "snowy" }?["id"] as? String ?? ""
        let cold = try world.list().first { $0["title"] as? String == "cold" }?["id"] as? String ?? ""
        #expect(try world.chest(["read", snowy]).stdout.contains("clear, needs snowy"))
        #expect(try world.chest(["read", cold]).stdout.contains("it is 20 °C, needs -5..3 °C"))
    }

    @Test func anOldReadingWhileOfflineKeepsLocksShutAndSaysWhy() throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date().addingTimeInterval(-45 * 60))))
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try dropWeatherLocks(world)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"] is [String: Any] }
        server.stop()
        usleep(500_000)
        #expect(try world.states() == ["snowy": "locked", "cold": "locked"])
        let snowy = try world.list().first { $0["title"] as? String == "snowy" }?["id"] as? String ?? ""
        let read = try world.chest(["read", snowy]).stdout
        #expect(read.contains("weather unknown: last reading 45 min old"), "\(read)")
    }

    @Test func aRateLimitBacksOff() throws {
        let server = try WeatherServer(scenario: .rateLimited(retryAfter: 120, reason: nil))
        defer { server.stop() }
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try dropWeatherLocks(world)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("the first request", timeout: 30) { server.hits >= 1 }
        sleep(8)
        #expect(server.hits == 1)
        #expect(world.daemonLog.contains("429") || world.daemonLog.lowercased().contains("rate"), "\(world.daemonLog)")
        let notes = try world.status()["notes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("weather:") }, "\(notes)")
        #expect(world.daemonIsRunning)
    }

    @Test func aRestartOfflineServesTheCachedReadingWithItsAge() throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date().addingTimeInterval(-120))))
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("rain", [.weather(.rainy)], into: world.chest)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"] is [String: Any] }
        world.stopDaemon()
        server.stop()
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        let weather = try #require(try world.status()["weather"] as? [String: Any])
        #expect(weather["condition"] as? String == "snowy")
        #expect((weather["ageSeconds"] as? Double ?? 0) >= 120)
        #expect(try world.chest(["status"]).stdout.contains("snowy, -1.0 °C, observed 2 min ago"))
    }

    @Test func noRequestWithoutAPendingWeatherOrTemperatureLock() throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date())))
        defer { server.stop() }
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("place", [.location(center: Coordinate(latitude: 47, longitude: 8), radius: 30)], into: world.chest)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("a fix", timeout: 20) { (try world.status()["fix"] as? [String: Any]) != nil }
        sleep(3)
        #expect(server.hits == 0)
    }

    @Test func aKeyUsesOpenWeatherMapAndNeverShowsInTheLog() throws {
        let key = "s3cr3t-owm-key-0123456789abcdef"
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: Date())), validKey: key)
        defer { server.stop() }
        let fake = try standingStill()
        defer { fake.stop() }
        let world = world(server, fake: fake)
        #expect(try world.chest(["config", "weather.key", key]).status == 0)
        try dropWeatherLocks(world)
        try world.startDaemon(["--weather-url", server.baseURL.absoluteString])
        try world.waitUntil("both open", timeout: 30) { try world.states() == ["snowy": "open", "cold": "open"] }
        #expect(server.requests.first?.path.contains("/data/2.5/weather") == true)
        #expect((try world.status()["weather"] as? [String: Any])?["provider"] as? String == "openweathermap")
        #expect(!world.daemonLog.contains(key))
        #expect(!(try world.chest(["config"]).stdout.contains(key)))
    }
}
