import ChestCore
import ChestSimulator
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Format 2 with the built chest and chestd: sealed pages composed by one user and opened by another
/// (docs/FORMAT.md "Format 2", docs/SECURITY.md).
@Suite(.realProcesses, .serialized, .timeLimit(.minutes(5)))
struct SealedPageTests {
    /// Every byte under `directory`, as text.
    func allBytes(_ directory: String) -> String {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var text = ""
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: directory + "/" + name) { text += String(decoding: data, as: UTF8.self) }
        }
        return text
    }

    func compose(_ world: ChestHarness, _ file: String, _ arguments: [String]) throws -> String {
        let outcome = try world.chest(["compose", "-o", file, "--title", file] + arguments, user: "alice")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aWalkOpensASealedLocationAndLeavesOne300MetresAwayShut() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first, away = GPSUnlockTests.offRoute
        let here = try compose(world, "here.locked", ["--page", "Found the first stone", "--lock", "location=\(first.latitude),\(first.longitude)/20m"])
        _ = try compose(world, "away.locked", ["--page", "Far stone text", "--lock", "location=\(away.latitude),\(away.longitude)/30m"])
        try world.startDaemon()
        #expect(try world.chest(["import", "here.locked"]).status == 0)
        #expect(try world.chest(["import", "away.locked"]).status == 0)
        let read = try world.chest(["read", here])
        #expect(read.stdout.contains("sealed location: go there") || read.stdout.contains("no GPS fix yet"), "\(read.stdout)")
        #expect(!read.stdout.contains(" away ("), "\(read.stdout)")
        // Nothing of either page is in the files or the chest before they open.
        for haystack in [allBytes(world.chest), allBytes(world.root + "/config-reader")] + ["here.locked", "away.locked"].map({ allBytes(world.root + "/" + $0) }) {
            for needle in ["Found the first stone", "Far stone", "47.371", "8.54,", "47.3705", "8.536"] {
                #expect(!haystack.contains(needle), "\(needle)")
            }
        }
        #expect(world.stopDaemon() == 0)
        let fake = try GPSFake(walk: GPSUnlockTests.walk(), delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        #expect(fake.waitForExit(timeout: 60) == 0, "\(fake.output)")
        try world.waitUntil("the sealed page opens", timeout: 20) { try world.states()["here.locked"] == "open" }
        #expect(try world.states()["away.locked"] == "locked", "\(world.daemonLog)")
        let opened = try world.chest(["read", here])
        #expect(opened.stdout.contains("Found the first stone"), "\(opened.stdout)")
        #expect(!allBytes(world.chest).contains("Far stone"))
        let status = try world.chest(["status"])
        #expect(status.stdout.contains("cells tried"), "\(status.stdout)")
    }

    @Test func thePINCountSurvivesDeleteReimportAndALostStateFile() throws {
        let world = ChestHarness()
        let id = try compose(world, "pin.locked", ["--page", "behind the clock", "--lock", "pin=482159"])
        try world.startDaemon()
        #expect(try world.chest(["import", "pin.locked"]).status == 0)
        for (n, pin) in ["0000", "1111"].enumerated() {
            #expect(try world.chest(["pin", id, pin]).stderr.contains("wrong PIN (\(n + 1) of 5"))
        }
        #expect(try world.chest(["delete", id]).status == 0)
        #expect(try world.chest(["import", "pin.locked"]).status == 0)
        let third = try world.chest(["pin", id, "2222"])
        #expect(third.stderr.contains("wrong PIN (3 of 5"), "\(third.stderr)")
        #expect(world.stopDaemon() == 0)
        try FileManager.default.removeItem(atPath: world.chest + "/state/\(id).json")
        try world.startDaemon()
        let fourth = try world.chest(["pin", id, "3333"])
        #expect(fourth.stderr.contains("wrong PIN (4 of 5"), "\(fourth.stderr)")
        let right = try world.chest(["pin", id, "482159"])
        #expect(right.stdout.contains("PIN accepted: page 1 open"), "\(right.stderr)")
        #expect(try world.chest(["read", id]).stdout.contains("behind the clock"))
    }

    @Test func aPINWithAPlaceIsKeptAndReadExplainsIt() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let id = try compose(world, "both.locked", ["--page", "both", "--lock", "location=\(first.latitude),\(first.longitude)/20m",
                                                    "--lock", "pin=4821"])
        try world.startDaemon()
        #expect(try world.chest(["import", "both.locked"]).status == 0)
        let kept = try world.chest(["pin", id, "1234"])
        #expect(kept.status == 0 && kept.stdout.contains("PIN kept: it will be tried at each new place"), "\(kept.stderr)")
        #expect(try world.chest(["read", id]).stdout.contains("a wrong PIN and a wrong place look alike"))
        let json = try world.chest(["read", "--json", id])
        #expect(json.stdout.contains(#""protection" : "sealed""#), "\(json.stdout)")
    }

    @Test func badSealedFilesAreSetAsideWithAReasonAndChestdKeepsRunning() throws {
        let world = ChestHarness()
        _ = try compose(world, "good.locked", ["--page", "p", "--lock", "pin=4821"])
        let text = try String(contentsOfFile: world.root + "/good.locked", encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("cost.locked", #""passes" : 2"#, #""passes" : 99"#),
            ("text.locked", #""ciphertext" :"#, #""text" : "in the clear", "ciphertext" :"#),
            ("salt.locked", #""salt" : ""#, #""salt" : "AAAA"#),
        ]
        try world.startDaemon()
        for (name, from, to) in cases {
            #expect(text.contains(from), "\(from)")
            try text.replacingOccurrences(of: from, with: to).write(toFile: world.chest + "/" + name, atomically: true, encoding: .utf8)
        }
        try world.waitUntil("all set aside", timeout: 15) { world.names(in: "rejected").count == 6 }
        let reasons = try cases.map { try String(contentsOfFile: world.chest + "/rejected/\($0.0).reason", encoding: .utf8) }
        #expect(reasons[0].contains("exceed the reader's cap"), "\(reasons[0])")
        #expect(reasons[1].contains("cannot carry the field"), "\(reasons[1])")
        #expect(reasons[2].contains("keyA.salt"), "\(reasons[2])")
        #expect(world.daemonIsRunning)
    }

    @Test func formatOneStillComposesAndShowsDistance() throws {
        let world = ChestHarness()
        let id = try compose(world, "old.locked", ["--format", "1", "--page", "old", "--lock", "location=47.371,8.54/20m"])
        #expect(try String(contentsOfFile: world.root + "/old.locked", encoding: .utf8).contains(#""version" : 1"#))
        try world.startDaemon()
        #expect(try world.chest(["import", "old.locked"]).status == 0)
        #expect(try world.chest(["read", id]).stdout.contains("unsealed (format 1)"))
    }
}
