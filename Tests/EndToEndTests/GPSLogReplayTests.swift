import ChestCore
import ChestIO
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Real receivers from gpsd's regression suite (docs/DESIGN.md "gpsfake harness"), replayed through gpsfake into chestd.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct GPSLogReplayTests {
    /// A lock around the receiver's true position opens; one 2 km away stays shut. An altitude lock ±40 m
    /// around the middle of its altitudes opens too (docs/DESIGN.md "Lock rules": consumer receivers report epv
    /// 45–70 m, some none at all); one 500 m above stays shut. quectel-eg25-g's cold start is a negative
    /// example whose altitudes say nothing true: it gets no altitude lock to open.
    @Test(arguments: GPSLogs.entries())
    func aLockAroundTheReceiverOpensAndOneFarAwayStaysShut(_ log: GPSLogs.Entry) throws {
        let world = ChestHarness()
        let centre = Coordinate(
            latitude: (log.latitudes.lowerBound + log.latitudes.upperBound) / 2,
            longitude: (log.longitudes.lowerBound + log.longitudes.upperBound) / 2)
        let corner = Coordinate(latitude: log.latitudes.upperBound, longitude: log.longitudes.upperBound)
        // Wide enough for the whole track and for the receivers' own error estimates (haicom starts at eph 400 m).
        let radius = max(centre.distance(to: corner) + 100, 500)
        let far = Coordinate(latitude: centre.latitude + (radius + 2_000) / 111_195, longitude: centre.longitude)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("here", [.location(center: centre, radius: radius)], into: world.chest)
        try alice.drop("far", [.location(center: far, radius: radius)], into: world.chest)
        var expected = ["here": "open", "far": "locked"]
        if let altitudes = log.altitudes, !log.negative {
            let middle = (altitudes.lowerBound + altitudes.upperBound) / 2
            try alice.drop("altitude", [.altitude(Bounds(min: middle - 40, max: middle + 40))], into: world.chest)
            try alice.drop("500 m above", [.altitude(Bounds(min: middle + 460, max: middle + 540))], into: world.chest)
            expected["altitude"] = "open"
            expected["500 m above"] = "locked"
        }
        let fake = try GPSFake(log: log.url, delay: 0.005)
        defer { fake.stop() }
        #expect(try world.replay(fake, timeout: 120) == 0, "\(fake.output)")
        #expect(try world.states() == expected, "\(log.name): \(world.daemonLog.suffix(1500))")
    }

    /// quectel-eg25-g's cold start reports altitudes from -250 m to 42 m with epv of 55–85 m: no narrow
    /// altitude range may open on it.
    @Test(.enabled(if: GPSLogs.entries().contains { $0.name == "quectel-eg25-g.log" }, "quectel-eg25-g.log is absent"))
    func theNoisyColdStartOpensNoNarrowAltitudeLock() throws {
        let world = ChestHarness()
        let log = try #require(GPSLogs.entries().first { $0.name == "quectel-eg25-g.log" })
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        for low in stride(from: -260, through: 40, by: 10) {
            try alice.drop(
                "alt \(low)", [.altitude(Bounds(min: Double(low), max: Double(low + 12)))], into: world.chest)
        }
        let fake = try GPSFake(log: log.url, delay: 0.005)
        defer { fake.stop() }
        #expect(try world.replay(fake, timeout: 120) == 0)
        let opened = try world.states().filter { $0.value != "locked" }
        #expect(opened.isEmpty, "\(opened)")
        #expect(world.daemonLog.contains("gpsd connected"))
    }

    /// Receivers made from a walk: one that reports no epv at all, one whose epv is 64 m (VDOP 2.8), as a
    /// consumer receiver does. A ±40 m range around the hill top opens on both; one 500 m above does not.
    @Test(arguments: ["no epv", "epv 64 m"])
    func altitudeLocksOpenOnReceiversWithoutOrWithAPoorEPV(_ receiver: String) throws {
        let world = ChestHarness()
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("hill", [.altitude(Bounds(min: 440, max: 520))], into: world.chest)
        try alice.drop("500 m above", [.altitude(Bounds(min: 940, max: 1020))], into: world.chest)
        let walk = NMEAWalk(
            waypoints: [
                .init(Coordinate(latitude: 47.3700, longitude: 8.5400), altitudeMSL: 400, hold: 2),
                .init(Coordinate(latitude: 47.3718, longitude: 8.5415), altitudeMSL: 480, hold: 6),
            ], start: Date(), speed: 5
        ).log(comment: receiver)
        let nmea = receiver == "no epv" ? NMEARewriter.withoutVerticalError(walk) : NMEARewriter.withVDOP(2.8, walk)
        let fake = try GPSFake(nmea: nmea, delay: 0.01)
        defer { fake.stop() }
        #expect(try world.replay(fake, timeout: 60) == 0)
        #expect(fake.output.contains(receiver == "no epv" ? "\"altMSL\"" : "\"epv\":64.4"))
        if receiver == "no epv" { #expect(!fake.output.contains("\"epv\"")) }
        #expect(try world.states() == ["hill": "open", "500 m above": "locked"], "\(world.daemonLog.suffix(1500))")
    }
}
