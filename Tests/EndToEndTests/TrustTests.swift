import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// The trust level of fixes from a real gpsd fed by gpsfake (docs/SECURITY.md "Hardware trust and time").
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct TrustTests {
    static let foot = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let top = Coordinate(latitude: 47.3718, longitude: 8.5415)

    static func walk(start: Date = Date(), hold: Int = 40) -> NMEAWalk {
        NMEAWalk(
            waypoints: [.init(foot, altitudeMSL: 400, hold: 2), .init(top, altitudeMSL: 480, hold: hold)],
            start: start, speed: 5)
    }

    /// Replays `nmea` into chestd and returns `status --json` once the replay is over, and the daemon's log.
    func replay(_ nmea: String, _ world: ChestHarness = ChestHarness()) throws -> (fix: JSON, log: String) {
        let fake = try GPSFake(nmea: nmea, delay: 0.005)
        defer { fake.stop() }
        #expect(try world.replay(fake) == 0)
        return (try world.status()["fix"] ?? [:], world.daemonLog)
    }

    @Test func gpsfakeIsAPTYAndItsFixesSimulated() throws {
        let world = ChestHarness()
        let fake = try GPSFake(walk: Self.walk(), delay: 0.005)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        var fix: JSON = [:]
        try world.waitUntil("a fix with its source", timeout: 20) {
            fix = try world.status()["fix"] ?? [:]
            return fix["source"]?.object != nil
        }
        let source = try #require(fix["source"])
        #expect(source["kind"]?.string == "pty")
        #expect((source["path"]?.string)?.hasPrefix("/dev/pts/") == true)
        let trust = try #require(fix["trust"])
        #expect(trust["level"]?.string == "simulated", "\(trust)")
        let text = try world.chest(["status"]).stdout
        #expect(text.contains("simulated: the receiver is a pseudo-terminal"), "\(text)")
        #expect(text.contains("at /dev/pts/"), "\(text)")
        #expect(fake.waitForExit(timeout: 60) == 0)
        #expect(world.daemonLog.contains("trust simulated"), "\(world.daemonLog)")
        #expect(!world.daemonLog.contains("trust suspect"), "\(world.daemonLog)")
    }

    @Test(arguments: ["a jump", "a frozen sky", "time going backwards"])
    func misbehavingFixesAreSuspect(_ misbehaviour: String) throws {
        let now = Date()
        let nmea: String
        let reason: String
        switch misbehaviour {
        case "a jump":
            let jump = NMEAWalk.sentences(
                for: .init(
                    time: now.addingTimeInterval(60),
                    coordinate:
                        Coordinate(latitude: 47.42, longitude: 8.54), altitudeMSL: 480))
            nmea = Self.walk(start: now, hold: 10).log() + jump.joined(separator: "\r\n") + "\r\n"
            reason = "the position jumped faster than anyone travels"
        case "a frozen sky":
            let signals = Dictionary(
                uniqueKeysWithValues: [2, 5, 9, 12, 15, 18, 21, 25].enumerated().map { ($1, 30 + 2 * $0) })
            nmea = NMEARewriter.withFixedSignals(Self.walk(start: now).log()) { signals[$0] ?? 30 }
            reason = "the satellites' signal strengths have not changed for many reports"
        default:
            nmea =
                Self.walk(start: now, hold: 5).log() + Self.walk(start: now.addingTimeInterval(-3_600), hold: 5).log()
            reason = "GPS time went backwards"
        }
        let (fix, log) = try replay(nmea)
        #expect(log.contains("trust suspect: \(reason)"), "\(log)")
        let trust = try #require(fix["trust"])
        #expect(trust["level"]?.string == "suspect")
    }

    /// An old track replayed at real time makes GPS time decide (the clock looks 90 days ahead); when the live
    /// feed follows, the jump drops that evidence and a lock due an hour ago opens: nothing stays frozen.
    @Test func anOldTrackThenALiveOneFreezesNothing() throws {
        let world = ChestHarness()
        let now = Date()
        func still(_ start: Date) -> String {
            NMEAWalk(waypoints: [.init(Self.top, altitudeMSL: 480, hold: 8)], start: start).log()
        }
        let old = still(now.addingTimeInterval(-90 * 86_400))
        let live = still(now.addingTimeInterval(12))
        let fake = try GPSFake(nmea: old + live, delay: 0.2)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        func clock() throws -> JSON { try world.status()["clock"] ?? [:] }
        try world.waitUntil("GPS time decides", timeout: 20) { try clock()["decidedBy"]?.string == "gps" }
        #expect((try clock()["why"]?.string)?.contains("ahead of GPS time") == true)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("an hour ago", [.time(now.addingTimeInterval(-3600))], into: world.chest)
        try world.waitUntil("it is in", timeout: 10) { try world.list().count == 1 }
        #expect(try world.states() == ["an hour ago": "locked"])
        try world.waitUntil("the live feed frees it", timeout: 30) { try world.states() == ["an hour ago": "open"] }
        #expect(try clock()["decidedBy"]?.string == "system")
        #expect(world.daemonLog.contains("GPS time no longer counts (GPS time jumped"), "\(world.daemonLog)")
    }

    /// `compose --require hardware`: on gpsfake (a pty, so `simulated`) such a message stays shut and `read`
    /// says why, while the same lock without the flag opens as always.
    @Test func aMessageThatRequiresHardwareStaysShutOnGpsfake() throws {
        let world = ChestHarness()
        let lock = "location=\(Self.top.latitude),\(Self.top.longitude)/100m"
        for (title, extra) in [("hardware", ["--require", "hardware"]), ("any", [])] {
            let made = try world.chest(
                [
                    "compose", "--seal-cost", "interactive", "-o", "\(title).locked", "--title", title, "--page", "p",
                    "--lock", lock,
                ]
                    + extra, user: "alice")
            #expect(made.status == 0, "\(made.stderr)")
            try FileManager.default.moveItem(
                atPath: world.root + "/\(title).locked", toPath: world.chest + "/\(title).locked")
        }
        let fake = try GPSFake(
            walk: NMEAWalk(waypoints: [.init(Self.top, altitudeMSL: 480, hold: 60)], start: Date()),
            delay: 0.05)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("the plain message opens", timeout: 30) { try world.states()["any"] == "open" }
        #expect(try world.states()["hardware"] == "locked")
        let id = try world.list().first { $0["title"]?.string == "hardware" }?["id"]?.string ?? ""
        let read = try world.chest(["read", id]).stdout
        #expect(read.contains("the organiser asks for a hardware GPS receiver; these fixes are simulated"), "\(read)")
    }
}
