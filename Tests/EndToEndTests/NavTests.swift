import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// `chest nav` in a real terminal: tmux runs it, capture-pane reads the screen, send-keys types.
@Suite(.realProcesses, .serialized, .timeLimit(.minutes(3)))
struct NavTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let target = Coordinate(latitude: 47.377854, longitude: 8.543109)

    /// A tmux server of the test's own, so nothing else's sessions are touched.
    struct Tmux {
        let socket: String

        @discardableResult
        func run(_ arguments: [String]) throws -> Subprocess.Outcome {
            try Subprocess.run("/usr/bin/tmux", ["-S", socket] + arguments, environment: ProcessInfo.processInfo.environment)
        }

        func screen() throws -> String { try run(["capture-pane", "-p", "-t", "nav"]).stdout }

        func waitFor(_ what: String, timeout: Double = 30, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if condition(last) { return last }
                usleep(200_000)
            }
            Issue.record("timed out waiting for \(what); the screen:\n\(last)")
            return last
        }

        /// Types q and tells whether the program quit (its session ended) within 10 s.
        func quitsOnQ() throws -> Bool {
            try run(["send-keys", "-t", "nav", "q"])
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, (try run(["has-session", "-t", "nav"])).status == 0 { usleep(100_000) }
            return try run(["has-session", "-t", "nav"]).status != 0
        }
    }

    @Test func showsTheFixAndTheTargetAndSurvivesGpsdGoingAway() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; make deps installs it")
            return
        }
        let world = ChestHarness()
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("Top", [.location(center: Self.target, radius: 25)], into: world.chest)
        let walk = NMEAWalk(waypoints: [.init(Self.start, altitudeMSL: 410, hold: 600)], start: Date(), speed: 1)
        let fake = try GPSFake(walk: walk, delay: 0.05)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()

        let tmux = Tmux(socket: world.root + "/tmux.sock")
        let environment = world.environment().flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux.run(["new-session", "-d", "-s", "nav", "-x", "100", "-y", "30"] + environment
                     + [ChestHarness.products + "/chest", "nav"])
        defer { _ = try? tmux.run(["kill-server"]) }

        var screen = try tmux.waitFor("the fix and the distance") { $0.contains("3D fix") && $0.contains("m away (NE)") }
        #expect(screen.contains("7 satellites"))
        #expect(screen.contains("47.37690 N  8.54170 E · 410 m"))
        #expect(screen.contains("150 m away (NE)   Top · page 1 set A"), "\(screen)")
        #expect(screen.contains("0/1  Top"))

        try tmux.run(["resize-window", "-t", "nav", "-x", "50", "-y", "12"])
        screen = try tmux.waitFor("the smaller frame") { $0.split(separator: "\n").first?.count ?? 0 <= 50 && $0.contains("Targets") }
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 50 })

        try tmux.run(["resize-window", "-t", "nav", "-x", "100", "-y", "30"])
        fake.stop()
        screen = try tmux.waitFor("gpsd gone", timeout: 30) { $0.contains("gpsd not connected") }
        #expect(screen.contains("150 m away (NE)"), "\(screen)")
        #expect(screen.contains("(last known"), "\(screen)")

        #expect(try tmux.quitsOnQ(), "nav did not quit on q")
    }

    @Test func onceWithoutATerminalPrintsOnePlainFrame() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let outcome = try world.chest(["nav", "--once"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("GPS    gpsd not connected"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("\u{1B}["))
    }
}
