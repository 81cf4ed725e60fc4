import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// `chest nav` in a real terminal: tmux runs it, capture-pane reads the screen, send-keys types; gpsd is fed by
/// gpsfake, or by a pty the test can freeze and unplug.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(3)))
struct NavTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let target = Coordinate(latitude: 47.377854, longitude: 8.543109)

    /// HuntTests' board runs under the same helper.
    typealias Tmux = ChestTestSupport.Tmux

    /// A quest of every kind of goal, composed by alice and dropped into `world`'s chest: "pilgrim" (a visible
    /// place named Sé 150 m NE of the start, a sealed place, an altitude, a chain on page 2, a time ten minutes ahead) and
    /// "Snow day" (weather or temperature).
    static func dropQuest(into world: ChestHarness) throws {
        let opensAt = ISO8601.string(Date().addingTimeInterval(600))
        let quest = """
            from: Alice
            message: pilgrim
            title: pilgrim
            page: Start here.
              lock: location=\(target.latitude),\(target.longitude)/25m,visible=Sé
            page: The hidden chapel.
              lock: location=47.3800,8.5450/30m
            page: Above the roofs.
              lock: altitude=65..95
            page: After the chapel.
              lock: after=#2
            page: At ten past.
              lock: time=\(opensAt)
            message: snow
            title: Snow day
            page: Only in snow.
              lock: weather=snowy
              or
              lock: temperature=-30..0

            """
        try quest.write(toFile: world.root + "/nav.quest", atomically: true, encoding: .utf8)
        let built = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "--quest", world.root + "/nav.quest",
                "-o", world.root + "/built",
            ], user: "alice")
        #expect(built.status == 0, "\(built.stderr)")
        for name in ["pilgrim", "snow"] {
            try FileManager.default.copyItem(
                atPath: world.root + "/built/\(name).locked", toPath: world.chest + "/\(name).locked")
        }
    }

    /// Starts `chest nav` in tmux at 110×34.
    static func startNav(_ world: ChestHarness) throws -> Tmux {
        let tmux = Tmux(socket: world.root + "/tmux.sock")
        let environment = world.environment().flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux.run(
            ["new-session", "-d", "-s", "nav", "-x", "110", "-y", "34"] + environment
                + [ChestHarness.products + "/chest", "nav"])
        return tmux
    }

    /// The text of the goal list's line for `owner` ("pilgrim p3").
    static func line(_ screen: String, _ owner: String) -> String {
        screen.split(separator: "\n").first { $0.contains(" \(owner) ") && !$0.hasPrefix("▶ pilgrim") }.map(String.init)
            ?? ""
    }

    @Test func showsEveryGoalPicksTargetsAndSaysWhenGpsdGoes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; make deps installs it")
            return
        }
        let world = ChestHarness()
        try Self.dropQuest(into: world)
        // Walking toward the visible place at 1 m/s, an epoch a second (5 sentences of 0.2 s).
        let walk = NMEAWalk(
            waypoints: [.init(Self.start, altitudeMSL: 55), .init(Self.target, altitudeMSL: 55, hold: 300)],
            start: Date(), speed: 1)
        let fake = try GPSFake(walk: walk, delay: 0.2)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("both messages are in", timeout: 20) { try world.list().count == 2 }
        let tmux = try Self.startNav(world)
        defer { _ = try? tmux.run(["kill-server"]) }

        var screen = try tmux.waitFor("a 3D fix and the arrival at the place") {
            $0.contains("3D FIX") && $0.contains("arrive in")
        }
        print("nav under tmux, walking:\n\(screen)")
        #expect(screen.contains("7/8 satellites"), "\(screen)")
        #expect(screen.contains("trust simulated"), "\(screen)")
        let place = Self.line(screen, "pilgrim p1")
        #expect(place.contains("place") && place.contains("° NE · arrive in 0:0"), "\(screen)")
        #expect(Self.line(screen, "pilgrim p2").contains("sealed place, no direction:"), "\(screen)")
        #expect(!Self.line(screen, "pilgrim p2").contains("°"), "a sealed place gives no direction: \(screen)")
        #expect(Self.line(screen, "pilgrim p3").contains("climb 10 m (at 55 m, needs 65..95 m)"), "\(screen)")
        #expect(
            Self.line(screen, "pilgrim p4").contains("waits for page 2 of \u{201C}pilgrim\u{201D} to open"), "\(screen)"
        )
        #expect(Self.line(screen, "pilgrim p5").contains("opens in 0:0"), "\(screen)")
        #expect(Self.line(screen, "Snow day p1").contains("wants snowy, now"), "\(screen)")
        #expect(Self.line(screen, "Snow day p1 set B").contains("wants -30..0 °C, now"), "\(screen)")
        #expect(place.contains("Sé · pilgrim p1"), "a visible place goes by its name: \(screen)")
        #expect(screen.contains("▶ Sé  (place)  pilgrim p1"), "the nearest place is picked first: \(screen)")

        // What nav reads: the place's target, with its name, in read --json; the sealed place has none.
        let pilgrim = try #require(try world.list().first { $0["title"]?.string == "pilgrim" }?["id"]?.string)
        let read =
            JSON.object(try world.chest(["read", pilgrim, "--json"]).stdout)
        let locks = (read?["pages"]?.array ?? []).map {
            (($0["sets"]?.array)?.first?["locks"]?.array)?.first
        }
        #expect((locks[0]?["target"])?["label"]?.string == "Sé", "\(locks)")
        #expect(locks[1]?["target"] == nil, "a sealed place shows no target: \(locks)")

        // j and the down arrow pick the next goals, k the one before.
        try tmux.type("j")
        try tmux.waitFor("the sealed place picked") { $0.contains("▶ pilgrim p2  (sealed)") }
        try tmux.type("Down")
        try tmux.waitFor("the altitude picked") { $0.contains("▶ pilgrim p3  (altitude)") }
        try tmux.type("k")
        try tmux.waitFor("the sealed place picked again") { $0.contains("▶ pilgrim p2  (sealed)") }
        // a: every goal, the whole screen; again: back.
        try tmux.type("a")
        try tmux.waitFor("all goals") { !$0.contains("Messages") && $0.contains("Goals (7)") }
        try tmux.type("a")
        try tmux.waitFor("the messages again") { $0.contains("Messages") }
        // A page opens: its text is shown under the messages, and o shows it on the whole screen; again: back.
        let bob = try MessageFactory(configDirectory: world.root + "/config-bob")
        _ = try bob.drop("Gift", [.time(Date(timeIntervalSince1970: 1_577_836_800))], into: world.chest)
        try tmux.waitFor("the opened page's text") {
            $0.contains("Opened  \u{201C}Gift\u{201D} page 1") && $0.contains("  Gift is open")
        }
        try tmux.type("o")
        try tmux.waitFor("the page on the whole screen") {
            $0.contains("\u{201C}Gift\u{201D} page 1  (o: back)") && !$0.contains("Goals (")
        }
        try tmux.type("o")
        try tmux.waitFor("the goals again") { $0.contains("Goals (") }

        // gpsfake and its gpsd stop: nav says so within 5 s, and the place's distance is kept as last known.
        fake.stop()
        let stopped = Date()
        screen = try tmux.waitFor("gpsd gone", timeout: 5) { $0.contains("GPSD GONE") }
        #expect(Date().timeIntervalSince(stopped) <= 5)
        screen = try tmux.waitFor("the place as last known") { Self.line($0, "pilgrim p1").contains("last known") }
        #expect(!screen.contains("3D FIX"), "\(screen)")
        #expect(try tmux.quitsOnQ(), "nav did not quit on q")
    }

    /// The receiver's feed freezes (the pty stays, silent), comes back, then the receiver is unplugged (the pty
    /// closes): nav never shows the frozen fix as current, and says the receiver is lost within 5 s of unplugging.
    @Test func aFrozenFeedAndAnUnpluggedReceiverShowReceiverLost() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; make deps installs it")
            return
        }
        let world = ChestHarness()
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("Top", [.location(center: Self.target, radius: 25)], into: world.chest)
        let now = Date()
        func epoch(_ second: Int) -> [String] {
            NMEAWalk.sentences(
                for: NMEAWalk.Epoch(
                    time: now.addingTimeInterval(Double(second)), coordinate: Self.start,
                    altitudeMSL: 410))
        }
        // Fixes for 4 s, silence for 12 s, then fixes for 5 minutes.
        let epochs = (0..<4).map(epoch) + [[String]](repeating: [], count: 12) + (16..<316).map(epoch)
        let feeder = try PTYFeeder(epochs: epochs, interval: 1, paused: true)
        defer { feeder.stop() }
        let gpsd = try world.startDaemon(readingFrom: feeder)
        defer { gpsd.stop() }
        let tmux = try Self.startNav(world)
        defer { _ = try? tmux.run(["kill-server"]) }
        feeder.resume()

        try tmux.waitFor("the fix") { $0.contains("3D FIX") }
        var screen = try tmux.waitFor("the frozen feed") { $0.contains("RECEIVER LOST") }
        #expect(screen.contains("no report from the receiver for"), "\(screen)")
        screen = try tmux.waitFor("the age counting on") {
            $0.range(of: #"no report from the receiver for ([7-9]|1\d) s"#, options: .regularExpression) != nil
        }
        #expect(!screen.contains("3D FIX"), "a frozen fix is shown as current: \(screen)")
        print("nav under tmux, the feed frozen:\n\(screen)")
        try tmux.waitFor("the fix again") { $0.contains("3D FIX") }

        // gpsd 3.22 tells its clients nothing when a pty closes (docs/DESIGN.md "When gpsd or the receiver goes
        // away"): the receiver is known lost when its last fix, at most a second older than the unplugging, is 5 s old.
        feeder.stop()
        let unplugged = Date()
        screen = try tmux.waitFor("the receiver lost", timeout: 7) { $0.contains("RECEIVER LOST") }
        #expect(Date().timeIntervalSince(unplugged) <= Fix.maximumAge + 1.5)
        print("nav under tmux, the receiver unplugged:\n\(screen)")
        #expect(try tmux.quitsOnQ(), "nav did not quit on q")
    }

    @Test func onceWithoutATerminalPrintsOnePlainFrame() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let outcome = try world.chest(["nav", "--once"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("GPSD GONE   gpsd at 127.0.0.1:9 is not connected"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("\u{1B}["))
    }
}
