import ChestTestSupport
import Foundation
import Testing

/// `make demo` as a person watches it: never silent for long, each unlock with its page, a clean summary.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(4)))
struct DemoTests {
    /// Here gpsfake gives up at once the first time, as it does when it reaches gpsd before gpsd listens on a busy
    /// machine (docs/DESIGN.md "gpsfake pitfalls"): the demo says so and replays on another port.
    @Test func demoTalksAsItWalksAndEndsWithASummary() throws {
        let world = ChestHarness()
        let (bin, starts) = try world.gpsfakeGivingUpOnce()
        var environment = ProcessInfo.processInfo.environment
        environment["CHEST_BIN"] = ChestHarness.products
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let started = Date()
        let outcome = try Subprocess.run(
            "/usr/bin/timeout", ["200", "/bin/bash", "scripts/demo.sh"], environment: environment,
            directory: GPSLogs.packageRoot.path)
        // timeout(1) says 124 when the demo ran out of its 200 s.
        let seconds = Int(Date().timeIntervalSince(started))
        #expect(
            outcome.status == 0, "status \(outcome.status) after \(seconds) s\n\(outcome.stdout)\n\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let unlocks = lines.indices.filter { lines[$0].contains(" unlocked ") }
        #expect(unlocks.count == 4, "\(outcome.stdout)")
        for index in unlocks {
            #expect(lines[index + 1].hasPrefix("          "), "\(lines[index + 1])")
            #expect(
                lines[index + 1].trimmingCharacters(in: .whitespaces).first?.isNumber == true, "\(lines[index + 1])")
        }
        #expect(lines.filter { $0.hasPrefix("   … ") }.count >= 15, "\(outcome.stdout)")
        let end = try #require(lines.firstIndex { $0.hasPrefix("== The walk is over: ") })
        #expect(lines[end].contains("pages 1, 2, 3, 4 open of 5"), "\(lines[end])")
        #expect(lines[end...].allSatisfy { !$0.contains("not connected") }, "\(outcome.stdout)")
        #expect(lines[end + 1].contains("page 5 stays shut: 2.3 km away"), "\(outcome.stdout)")
        #expect(try String(contentsOfFile: starts, encoding: .utf8) == "start\nstart\n")
        #expect(outcome.stderr.contains("trying again on another port"), "\(outcome.stderr)")
    }
}
