import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Real receivers from gpsd's regression suite (../shared/gpslogs), replayed through gpsfake into chestd.
/// Skipped, saying so, where that folder is absent.
@Suite(.serialized, .timeLimit(.minutes(5)),
       .enabled(if: !GPSLogs.entries().isEmpty, "../shared/gpslogs is absent: the real-receiver replays are skipped"))
struct GPSLogReplayTests {
    /// A lock around the receiver's true position opens; one 2 km away stays shut.
    @Test(arguments: GPSLogs.entries())
    func aLockAroundTheReceiverOpensAndOneFarAwayStaysShut(_ log: GPSLogs.Entry) throws {
        let world = ChestHarness()
        let centre = Coordinate(latitude: (log.latitudes.lowerBound + log.latitudes.upperBound) / 2,
                                longitude: (log.longitudes.lowerBound + log.longitudes.upperBound) / 2)
        let corner = Coordinate(latitude: log.latitudes.upperBound, longitude: log.longitudes.upperBound)
        // Wide enough for the whole track and for the receivers' own error estimates (haicom starts at eph 400 m).
        let radius = max(centre.distance(to: corner) + 100, 500)
        let far = Coordinate(latitude: centre.latitude + (radius + 2_000) / 111_195, longitude: centre.longitude)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("here", [.location(center: centre, radius: radius)], into: world.chest)
        try alice.drop("far", [.location(center: far, radius: radius)], into: world.chest)
        let fake = try GPSFake(log: log.url, delay: 0.005)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        #expect(fake.waitForExit(timeout: 120) == 0, "\(fake.output)")
        try world.waitUntil("the replay is over", timeout: 15) {
            (try world.status()["gpsd"] as? [String: Any])?["connected"] as? Bool == false
        }
        #expect(try world.states() == ["here": "open", "far": "locked"], "\(log.name): \(world.daemonLog.suffix(1500))")
    }

    /// quectel-eg25-g's cold start reports altitudes from -250 m to 42 m with epv of 55–85 m: no narrow
    /// altitude range may open on it.
    @Test(.enabled(if: GPSLogs.entries().contains { $0.name == "quectel-eg25-g.log" }, "quectel-eg25-g.log is absent"))
    func theNoisyColdStartOpensNoNarrowAltitudeLock() throws {
        let world = ChestHarness()
        let log = try #require(GPSLogs.entries().first { $0.name == "quectel-eg25-g.log" })
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        for low in stride(from: -260, through: 40, by: 10) {
            try alice.drop("alt \(low)", [.altitude(Bounds(min: Double(low), max: Double(low + 12)))], into: world.chest)
        }
        let fake = try GPSFake(log: log.url, delay: 0.005)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        #expect(fake.waitForExit(timeout: 120) == 0)
        try world.waitUntil("the replay is over", timeout: 15) {
            (try world.status()["gpsd"] as? [String: Any])?["connected"] as? Bool == false
        }
        let opened = try world.states().filter { $0.value != "locked" }
        #expect(opened.isEmpty, "\(opened)")
        #expect(world.daemonLog.contains("gpsd connected"))
    }
}
