import ChestTestSupport
import Foundation
import Testing

/// Issue 61, finding 7: a geocaching GPX of thousands of caches. `chest preview` does the same work for each
/// waypoint however many there are (100,000 took 106 s, docs/BENCHMARKS.md "A course of 100,000 waypoints"), and
/// compose --quest says what sealing them all will cost before it starts, and asks.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(15)))
struct GeocacheScaleTests {
    /// A course of `caches` caches, each with its parking place before it (a point its page takes when it comes) and
    /// every tenth with a reference point of a cache not in the file (which waits to the end and goes to page 1).
    static func course(caches: Int) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0">"#,
        ]
        for index in 1...caches {
            let (latitude, longitude) = (47 + Double(index % 300) * 0.001, 8 + Double(index / 300) * 0.001)
            func point(_ latitude: Double, _ longitude: Double) -> String {
                String(format: #"lat="%.6f" lon="%.6f""#, latitude, longitude)
            }
            lines.append(
                "<wpt \(point(latitude + 0.0005, longitude))><name>PK\(index)</name><desc>Parking \(index)</desc>"
                    + "<type>Waypoint|Parking Area</type></wpt>")
            lines.append(
                "<wpt \(point(latitude, longitude))><name>GC\(index)</name><urlname>Cache \(index)</urlname>"
                    + "<desc>Cache \(index)</desc><type>Geocache|Traditional Cache</type></wpt>")
            if index % 10 == 0 {
                lines.append(
                    "<wpt \(point(latitude, longitude + 0.0005))><name>THX\(index)</name><desc>Elsewhere</desc>"
                        + "<type>Waypoint|Trailhead</type></wpt>")
            }
        }
        return (lines + ["</gpx>"]).joined(separator: "\n") + "\n"
    }

    /// The instructions `chest ARGUMENTS` executes, counted by valgrind: the same on a loaded machine as on an idle
    /// one, unlike its time (Swift's hashing seeded alike every run).
    static func instructions(_ world: ChestHarness, _ arguments: [String]) throws -> (count: Double, stdout: String) {
        let valgrind = "/usr/bin/valgrind"
        try #require(FileManager.default.isExecutableFile(atPath: valgrind), "make deps installs valgrind")
        var environment = world.environment()
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        let outcome = try Subprocess.run(
            valgrind,
            [
                "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                ChestHarness.products + "/chest",
            ]
                + arguments, environment: environment, directory: world.root)
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let line = try #require(outcome.stderr.split(separator: "\n").first { $0.contains("I   refs:") })
        let digits = line.split(separator: ":").last!.filter(\.isNumber)
        return (try #require(Double(digits)), outcome.stdout)
    }

    @Test func previewDoesTheSameWorkForEveryWaypointOfAnyCourse() throws {
        let world = ChestHarness()
        var counts: [Int: Double] = [:]
        for caches in [500, 1_000, 2_000] {
            let path = world.root + "/course-\(caches).gpx"
            try Self.course(caches: caches).write(toFile: path, atomically: true, encoding: .utf8)
            let (count, stdout) = try Self.instructions(world, ["preview", path])
            #expect(stdout.components(separatedBy: "\nPage ").count - 1 == caches)
            #expect(stdout.contains("(\(caches / 5) of \(caches / 5))"))
            counts[caches] = count
        }
        // Linear work gives every further waypoint what the ones before cost; a quadratic step (a search of the
        // messages or pages read so far, for each) makes the second thousand cost more than the first.
        let first = (counts[1_000]! - counts[500]!) / 500
        let second = (counts[2_000]! - counts[1_000]!) / 1_000
        #expect(
            second < first * 1.15,
            "instructions a waypoint: \(Int(first)) from 500 to 1,000, \(Int(second)) from 1,000 to 2,000")
    }

    /// 10,000 caches are 10,000 sealed places: hours of Argon2id. Without a terminal compose writes nothing unless
    /// --yes; on one it asks; a small quest is built as before, without a word of it.
    @Test func composingTenThousandCachesSaysWhatSealingCostsAndAsksFirst() throws {
        let world = ChestHarness()
        let gpx = world.root + "/pq.gpx"
        try Self.course(caches: 10_000).write(toFile: gpx, atomically: true, encoding: .utf8)
        let out = world.root + "/out"
        let chest = ChestHarness.products + "/chest"
        // a35068f started sealing at once, without a word of what it would cost: a process to stop, not to wait for.
        let refused = try TestProcess(
            chest, ["compose", "--quest", gpx, "-o", out], environment: world.environment(),
            output: URL(fileURLWithPath: world.root + "/refused.log"))
        try world.waitUntil("compose refuses or starts sealing", timeout: 300) {
            !refused.isRunning || refused.outputText.contains("chest: sealing page 1:")
        }
        let said = refused.outputText
        #expect(refused.waitForExit(timeout: 1) == 1, "\(said)")
        refused.terminate()
        #expect(said.contains("chest: sealing 10,000 pages of 2,000 messages takes about "), "\(said)")
        #expect(said.contains("(40,000 Argon2id runs"), "\(said)")
        #expect(said.contains("chest: nothing was written: give --yes"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: out), "not even the directory")

        // On a terminal it asks; anything but y writes nothing, y starts sealing.
        let tmux = Tmux(socket: world.root + "/tmux.sock")
        let environment = world.environment().flatMap { ["-e", "\($0.key)=\($0.value)"] }
        func start() throws {
            try tmux.run(
                ["new-session", "-d", "-s", "nav", "-x", "200", "-y", "40", "-c", world.root] + environment
                    + [
                        "sh", "-c",
                        "'\(ChestHarness.products)/chest' compose --quest pq.gpx -o out; echo status $?; sleep 600",
                    ])
            try tmux.waitFor("the question", timeout: 60) { $0.contains("go on? [y/N]") }
        }
        defer { _ = try? tmux.run(["kill-server"]) }
        try start()
        try tmux.type("n", "Enter")
        let screen = try tmux.waitFor("the refusal") { $0.contains("status 1") }
        #expect(screen.contains("chest: nothing was written"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: out))
        try tmux.run(["kill-session", "-t", "nav"])
        try start()
        try tmux.type("y", "Enter")
        try tmux.waitFor("the first page sealing", timeout: 120) {
            $0.contains("chest: sealing page 1: ")
        }
        try tmux.run(["kill-server"])

        // --yes goes on without a terminal, still saying what it will cost.
        let yes = try TestProcess(
            chest, ["compose", "--quest", gpx, "-o", out + "-yes", "--yes"], environment: world.environment(),
            output: URL(fileURLWithPath: world.root + "/yes.log"))
        defer { yes.terminate() }
        try world.waitUntil("--yes starts sealing", timeout: 120) {
            yes.outputText.contains("chest: sealing page 1:")
        }
        #expect(
            yes.outputText.contains("chest: sealing 10,000 pages of 2,000 messages takes about "), "\(yes.outputText)")
        #expect(!yes.outputText.contains("go on?"), "\(yes.outputText)")
    }
}
