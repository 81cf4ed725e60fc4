import ChestCore
import ChestIO
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Weather and temperature locks with the built chestd, a real gpsd fed by gpsfake for the position, and a real
/// HTTP server on loopback answering as Open-Meteo and OpenWeatherMap document.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(4)))
struct WeatherUnlockTests {
    static let place = Coordinate(latitude: 46.5197, longitude: 6.6323)

    func dropWeatherLocks(_ world: ChestHarness) throws {
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("snowy", [.weather(.snowy)], into: world.chest)
        try alice.drop("cold", [.temperature(Bounds(min: -5, max: 3))], into: world.chest)
    }

    @Test func aSnowyReadingOpensWeatherAndTemperatureLocks() throws {
        let scene = try Scene(.weather(.snowy(-1, at: Date())))
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        try dropWeatherLocks(world)
        try scene.start()
        try world.waitUntil("both open", timeout: 30) { try world.states() == ["snowy": "open", "cold": "open"] }
        let query = try #require(server.requests.first)
        #expect(query[parameter: "latitude"] == "46.52")
        #expect(query[parameter: "longitude"] == "6.63")
        let weather = try #require(try world.status()["weather"])
        #expect(weather["condition"]?.string == "snowy")
        #expect(weather["temperatureC"]?.double == -1)
        #expect(weather["provider"]?.string == "open-meteo")
    }

    @Test func aClearReadingOpensNeitherAndSaysWhy() throws {
        let scene = try Scene(.weather(.clear(20, at: Date())))
        let world = scene.world
        defer { withExtendedLifetime(scene) {} }
        try dropWeatherLocks(world)
        try scene.start()
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"]?.object != nil }
        #expect(try world.states() == ["snowy": "locked", "cold": "locked"])
        let snowy = try world.list().first { $0["title"]?.string == "snowy" }?["id"]?.string ?? ""
        let cold = try world.list().first { $0["title"]?.string == "cold" }?["id"]?.string ?? ""
        #expect(try world.chest(["read", snowy]).stdout.contains("clear, needs snowy"))
        #expect(try world.chest(["read", cold]).stdout.contains("it is 20 °C, needs -5..3 °C"))
    }

    @Test func anOldReadingWhileOfflineKeepsLocksShutAndSaysWhy() throws {
        let scene = try Scene(.weather(.snowy(-1, at: Date().addingTimeInterval(-45 * 60))))
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        try dropWeatherLocks(world)
        try scene.start()
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"]?.object != nil }
        server.stop()
        #expect(try world.states() == ["snowy": "locked", "cold": "locked"])
        let snowy = try world.list().first { $0["title"]?.string == "snowy" }?["id"]?.string ?? ""
        let read = try world.chest(["read", snowy]).stdout
        #expect(read.contains("weather unknown: last reading 45 min old"), "\(read)")
    }

    @Test func aRateLimitBacksOff() throws {
        let scene = try Scene(.rateLimited(retryAfter: 120, reason: nil))
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        try dropWeatherLocks(world)
        try scene.start()
        try world.waitUntil("the first request", timeout: 30) { server.hits >= 1 }
        try world.waitUntil("chestd notes the refusal", timeout: 30) {
            (try world.status()["notes"]?.strings ?? []).contains { $0.hasPrefix("weather:") }
        }
        // Each fix is a chance to ask again: ten seconds of them, and the refusal still holds.
        try world.waitForFixes(seconds: 10)
        #expect(server.hits == 1)
        #expect(world.daemonLog.contains("429") || world.daemonLog.lowercased().contains("rate"), "\(world.daemonLog)")
        #expect(world.daemonIsRunning)
    }

    @Test func aRestartOfflineServesTheCachedReadingWithItsAge() throws {
        let scene = try Scene(.weather(.snowy(-1, at: Date().addingTimeInterval(-120))))
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("rain", [.weather(.rainy)], into: world.chest)
        try scene.start()
        try world.waitUntil("a reading arrived", timeout: 30) { try world.status()["weather"]?.object != nil }
        world.stopDaemon()
        server.stop()
        try scene.start()
        let weather = try #require(try world.status()["weather"])
        #expect(weather["condition"]?.string == "snowy")
        #expect((weather["ageSeconds"]?.double ?? 0) >= 120)
        #expect(try world.chest(["status"]).stdout.contains("snowy, -1.0 °C, observed 2 min ago"))
    }

    @Test func noRequestWithoutAPendingWeatherOrTemperatureLock() throws {
        let scene = try Scene(.weather(.snowy(-1, at: Date())))
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("place", [.location(center: Coordinate(latitude: 47, longitude: 8), radius: 30)], into: world.chest)
        try scene.start()
        try world.waitUntil("a fix", timeout: 20) { (try world.status()["fix"]) != nil }
        // Each fix is a chance to ask: five seconds of them, and no request.
        try world.waitForFixes(seconds: 5)
        #expect(server.hits == 0)
    }

    @Test func aKeyUsesOpenWeatherMapAndNeverShowsInTheLog() throws {
        let key = "s3cr3t-owm-key-0123456789abcdef"
        let scene = try Scene(.weather(.snowy(-1, at: Date())), validKey: key)
        let (server, world) = (scene.server, scene.world)
        defer { withExtendedLifetime(scene) {} }
        #expect(try world.chest(["config", "weather.key", key]).status == 0)
        try dropWeatherLocks(world)
        try scene.start()
        try world.waitUntil("both open", timeout: 30) { try world.states() == ["snowy": "open", "cold": "open"] }
        #expect(server.requests.first?.path.contains("/data/2.5/weather") == true)
        #expect((try world.status()["weather"])?["provider"]?.string == "openweathermap")
        #expect(!world.daemonLog.contains(key))
        #expect(!(try world.chest(["config"]).stdout.contains(key)))
    }
}

/// A weather test's world: a loopback provider, a receiver standing still at `place`, and a chest for chestd.
final class Scene {
    let server: WeatherServer
    let fake: GPSFake
    let world = ChestHarness()

    init(_ scenario: WeatherServer.Scenario, validKey: String? = nil) throws {
        server = try WeatherServer(scenario: scenario, validKey: validKey)
        fake = try GPSFake(
            walk: NMEAWalk(
                waypoints: [.init(WeatherUnlockTests.place, altitudeMSL: 500, hold: 600)],
                start: Date(), speed: 1), delay: 0.05)
        world.gpsd = "127.0.0.1:\(fake.port)"
    }

    /// Starts chestd with the loopback server as its weather provider.
    func start() throws { try world.startDaemon(["--weather-url", server.baseURL.absoluteString]) }

    deinit {
        server.stop()
        fake.stop()
    }
}
