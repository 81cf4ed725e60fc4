import ChestCore
import ChestIO
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Location and altitude locks against a real gpsd fed by gpsfake, with the built chestd.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct GPSUnlockTests {
    static let start = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let first = Coordinate(latitude: 47.3710, longitude: 8.5400)
    static let second = Coordinate(latitude: 47.3710, longitude: 8.5415)
    static let hill = Coordinate(latitude: 47.3718, longitude: 8.5415)
    static let underTrees = Coordinate(latitude: 47.3718, longitude: 8.5440)
    static let offRoute = Coordinate(latitude: 47.3705, longitude: 8.5360)

    /// Two locations and a hill, then a stretch without a fix ending at a lock's point.
    static func walk(start date: Date = Date()) -> NMEAWalk {
        NMEAWalk(
            waypoints: [
                .init(start, altitudeMSL: 400, hold: 2),
                .init(first, altitudeMSL: 400, hold: 4),
                .init(second, altitudeMSL: 405, hold: 4),
                .init(hill, altitudeMSL: 480, hold: 5),
                .init(underTrees, altitudeMSL: 480, noFix: true, hold: 6),
            ], start: date, speed: 5)
    }

    /// Waits until gpsfake has replayed everything and chestd has seen the end of the feed.
    func finish(_ fake: GPSFake, _ world: ChestHarness) throws {
        #expect(fake.waitForExit(timeout: 60) == 0, "\(fake.output)")
        try world.waitUntil("chestd saw gpsd go", timeout: 15) {
            (try world.status()["gpsd"])?["connected"]?.bool == false
        }
    }

    @Test func aWalkOpensTwoLocationsAndTheHillButNothingElse() throws {
        let world = ChestHarness()
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("first", [.location(center: Self.first, radius: 20)], into: world.chest)
        try alice.drop("second", [.location(center: Self.second, radius: 20)], into: world.chest)
        try alice.drop("hill", [.altitude(Bounds(min: 470, max: 490))], into: world.chest)
        try alice.drop("off route", [.location(center: Self.offRoute, radius: 30)], into: world.chest)
        try alice.drop("under trees", [.location(center: Self.underTrees, radius: 15)], into: world.chest)
        #expect(Self.offRoute.distance(to: Self.start) > 300)
        let fake = try GPSFake(walk: Self.walk(), delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try finish(fake, world)
        let states = try world.states()
        #expect(
            states == [
                "first": "open", "second": "open", "hill": "open", "off route": "locked", "under trees": "locked",
            ],
            "\(world.daemonLog)")
        #expect(world.daemonLog.contains("gpsd connected at 127.0.0.1:\(fake.port)"))
        // One line per event: the link's changes and each unlock are logged once.
        let log = world.daemonLog
        #expect(log.components(separatedBy: "gpsd connected").count == 2, "\(log)")
        #expect(log.components(separatedBy: "gpsd at 127.0.0.1:\(fake.port) not connected").count <= 2, "\(log)")
        for title in ["first", "second", "hill"] {
            #expect(log.components(separatedBy: "\"\(title)\" page 1").count == 2, "\(title): \(log)")
        }
    }

    @Test func aSingleFixJumpOntoALockDoesNotOpenIt() throws {
        let world = ChestHarness()
        let target = Self.first
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("jump", [.location(center: target, radius: 20)], into: world.chest)
        let far = Coordinate(latitude: target.latitude - 0.005, longitude: target.longitude)
        let now = Date()
        let positions =
            Array(repeating: far, count: 5) + [target] + Array(repeating: far, count: 5) + [target, target] + [far]
        let nmea =
            positions.enumerated().flatMap { second, position in
                NMEAWalk.sentences(
                    for: NMEAWalk.Epoch(
                        time: now.addingTimeInterval(Double(second)), coordinate: position,
                        altitudeMSL: 400, hasFix: true, speed: 0, course: 0))
            }.joined(separator: "\r\n") + "\r\n"
        let fake = try GPSFake(nmea: nmea, delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try finish(fake, world)
        #expect(try world.states() == ["jump": "locked"])
        let read = try world.chest(["read", try #require(try world.list().first?["id"]?.string)])
        #expect(read.stdout.contains("no GPS fix yet: gpsd is not connected"), "\(read.stdout)")
    }

    /// Two fixes at the point, a silence longer than a fix's life, one more: never three within 5 s.
    @Test func aStaleFixDoesNotCountTowardsALock() throws {
        let world = ChestHarness()
        let target = Self.first
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("stale", [.location(center: target, radius: 20)], into: world.chest)
        let now = Date()
        func epoch(_ second: Int) -> [String] {
            NMEAWalk.sentences(
                for: NMEAWalk.Epoch(
                    time: now.addingTimeInterval(Double(second)), coordinate: target,
                    altitudeMSL: 400, hasFix: true, speed: 0, course: 0))
        }
        let silence = [[String]](repeating: [], count: 7)
        let feeder = try PTYFeeder(epochs: [epoch(0), epoch(1)] + silence + [epoch(9)] + silence, interval: 1)
        defer { feeder.stop() }
        let port = FreePort.onLoopback()
        let gpsd = try GPSDaemon(port: port, device: feeder.devicePath)
        defer { gpsd.stop() }
        world.gpsd = "127.0.0.1:\(port)"
        try world.startDaemon()
        // The third fix, 8 s after the second, counts as a first again; once it is older than any fix lives the lock
        // has had every fix it will get. Not 5 s: a fix lives twice the receiver's cadence as chestd measures it,
        // and when gpsd made no fix of second 0 (chestd connecting under load), the one interval measured is 8 s.
        try world.waitUntil("the fix of second 9 is older than any fix lives", timeout: 60) {
            let fix = try world.status()["fix"]
            guard let time = (fix?["time"]?.string).flatMap({ ISO8601.parse($0) }) else { return false }
            return time >= now.addingTimeInterval(8.5) && fix?["ageSeconds"]?.double ?? 0 > ReceiverCadence.longestGap
        }
        #expect(try world.states() == ["stale": "locked"], "\(world.daemonLog)")
        let read = try world.chest(["read", try #require(try world.list().first?["id"]?.string)])
        #expect(read.stdout.contains("s old"), "\(read.stdout)")
    }

    @Test func gpsdKilledAndRestartedIsReportedAndReconnected() throws {
        let world = ChestHarness()
        let walk = NMEAWalk(waypoints: [.init(Self.start, altitudeMSL: 400, hold: 120)], start: Date(), speed: 1)
        let feeder = try PTYFeeder(walk: walk, interval: 0.25)
        defer { feeder.stop() }
        let port = FreePort.onLoopback()
        var gpsd = try GPSDaemon(port: port, device: feeder.devicePath)
        defer { gpsd.stop() }
        world.gpsd = "127.0.0.1:\(port)"
        try world.startDaemon()
        let events = world.root + "/events.json"
        let watcher = try TestProcess(
            ChestHarness.products + "/chest", ["watch", "--json", "--timeout", "40"],
            wholeEnvironment: world.environment(), stdout: events, stderr: events)
        defer {
            watcher.terminate()
        }
        try world.waitUntil("chestd has a fix", timeout: 20) {
            ((try world.status()["fix"])?["mode"]?.int ?? 0) >= 2
        }
        gpsd.stop()
        try world.waitUntil("chestd reports the loss", timeout: 15) {
            (try world.status()["gpsd"])?["connected"]?.bool == false
        }
        #expect(world.daemonIsRunning)
        gpsd = try GPSDaemon(port: port, device: feeder.devicePath)
        try world.waitUntil("chestd reconnects", timeout: 20) {
            (try world.status()["gpsd"])?["connected"]?.bool == true
        }
        try world.waitUntil("fixes resume", timeout: 20) {
            ((try world.status()["fix"])?["ageSeconds"]?.double ?? 99) < 2
        }
        let lines = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(lines.contains(#""connected":false"#) && lines.contains(#""event":"gpsd""#), "\(lines.prefix(2000))")
        #expect(world.daemonLog.contains("not connected"))
    }

    /// The receiver's clock is a day behind the system clock: time locks follow GPS time.
    @Test func aClockAheadOfGPSTimeKeepsADueTimeLockShut() throws {
        let world = ChestHarness()
        let dayAgo = Date().addingTimeInterval(-86_400)
        let walk = NMEAWalk(waypoints: [.init(Self.start, altitudeMSL: 400, hold: 400)], start: dayAgo, speed: 1)
        // Real time (5 sentences of 0.2 s an epoch): GPS time must advance as the clock does (docs/SECURITY.md).
        let fake = try GPSFake(walk: walk, delay: 0.2)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("chestd trusts GPS time", timeout: 30) {
            (try world.status()["clock"])?["usingGPSTime"]?.bool == true
        }
        let offset = (try world.status()["clock"])?["gpsOffsetSeconds"]?.double ?? 0
        #expect(abs(offset - 86_400) < 120)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("an hour ago", [.time(Date().addingTimeInterval(-3600))], into: world.chest)
        try alice.drop("two days ago", [.time(Date().addingTimeInterval(-2 * 86_400))], into: world.chest)
        try world.waitUntil("the one two days ago opens", timeout: 10) { try world.states()["two days ago"] == "open" }
        #expect(try world.states() == ["an hour ago": "locked", "two days ago": "open"])
        let id = try world.list().first { $0["title"]?.string == "an hour ago" }?["id"]?.string ?? ""
        #expect(try world.chest(["read", id]).stdout.contains("by GPS time"))
    }

    @Test func composeHereTakesChestdsFix() throws {
        let world = ChestHarness()
        let walk = NMEAWalk(waypoints: [.init(Self.hill, altitudeMSL: 480, hold: 400)], start: Date(), speed: 1)
        let fake = try GPSFake(walk: walk, delay: 0.05)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("a 3D fix", timeout: 20) {
            ((try world.status()["fix"])?["mode"]?.int ?? 0) == 3
        }
        let compose = try world.chest([
            "compose", "--seal-cost", "interactive", "-o", "here.locked", "--title", "Here", "--page", "x",
            "--lock", "location=here/30m,visible", "--lock", "altitude=here±20",
        ])
        #expect(compose.status == 0, "\(compose.stderr)")
        let message = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: world.root + "/here.locked")))
        guard case let .location(center, radius) = message.pages[0].setA[0],
            case let .altitude(bounds) = message.pages[0].setA[1]
        else {
            Issue.record("unexpected locks \(message.pages[0].setA)")
            return
        }
        #expect(center.distance(to: Self.hill) < 1)
        #expect(radius == 30)
        #expect(abs(bounds.min - 460) < 0.5 && abs(bounds.max - 500) < 0.5)
        let status = try world.chest(["status"])
        #expect(status.stdout.contains("3D fix"))
        #expect(status.stdout.contains("47.371800 N"))
        #expect(status.stdout.contains("480.0 m above sea level"))
    }
}
