import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// Signed unlock receipts: `chest receipt` on the reader's side, `chest verify` on the organiser's
/// (docs/FORMAT.md "Unlock receipts").
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct ReceiptTests {
    @Test func aReceiptVerifiesAndAnEditedOrMismatchedOneDoesNot() throws {
        let world = ChestHarness()
        let top = Coordinate(latitude: 47.3718, longitude: 8.5415)
        for (title, lock) in [
            ("place", "location=\(top.latitude),\(top.longitude)/50m"), ("time", "time=2020-01-01T00:00:00Z"),
        ] {
            let made = try world.chest(
                [
                    "compose", "--seal-cost", "interactive", "-o", "\(title).locked", "--title", title, "--page", "p",
                    "--lock", lock,
                ],
                user: "alice")
            #expect(made.status == 0, "\(made.stderr)")
        }
        let fake = try GPSFake(
            walk: NMEAWalk(waypoints: [.init(top, altitudeMSL: 480, hold: 60)], start: Date()), delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        // The messages come in once chestd knows the receiver, so the receipt's evidence names it.
        try world.waitUntil("chestd knows the receiver", timeout: 30) {
            let status = try world.chest(["status", "--json"]).stdout
            let report = JSON.object(status)
            let source = (report?["fix"])?["source"]
            return source?["kind"]?.string == "pty"
        }
        for title in ["place", "time"] {
            try FileManager.default.copyItem(
                atPath: world.root + "/\(title).locked", toPath: world.chest + "/\(title).locked")
        }
        try world.waitUntil("both open", timeout: 30) { try world.states() == ["place": "open", "time": "open"] }
        func id(_ title: String) throws -> String {
            try world.list().first { $0["title"]?.string == title }?["id"]?.string ?? ""
        }

        let exported = try world.chest(["receipt", try id("place"), "-o", "place.json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let verified = try world.chest(["verify", "place.json", "place.locked"], user: "alice")
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("receipt: \"place\""), "\(verified.stdout)")
        #expect(verified.stdout.contains("(not known to you); the opening is not proven"), "\(verified.stdout)")
        #expect(verified.stdout.contains("the evidence (fixes, trust) is the reader's claim"), "\(verified.stdout)")
        #expect(verified.stdout.contains("simulated: the receiver is a pseudo-terminal"), "\(verified.stdout)")
        let receipt = try UnlockReceipt.decode(Data(contentsOf: URL(fileURLWithPath: world.root + "/place.json")))
        #expect(receipt.evidence.fixes.count == 3)
        #expect(receipt.evidence.source?.kind == .pty)
        #expect(receipt.evidence.fixes.allSatisfy { $0.mode == 3 && $0.latitude != nil && $0.time != nil })

        // A page opened by a time lock has a receipt too, with no fixes.
        #expect(try world.chest(["receipt", try id("time"), "--page", "1", "-o", "time.json"]).status == 0)
        #expect(
            try world.chest(["verify", "time.json", "time.locked"], user: "alice").stdout.contains("locks      time"))

        // Edited: the reader moves the fixes 1 km north.
        let text = try String(contentsOfFile: world.root + "/place.json", encoding: .utf8)
        try text.replacingOccurrences(of: "\"latitude\" : 47.37", with: "\"latitude\" : 47.38")
            .write(toFile: world.root + "/edited.json", atomically: true, encoding: .utf8)
        let edited = try world.chest(["verify", "edited.json", "place.locked"], user: "alice")
        #expect(edited.status != 0)
        #expect(
            edited.stderr.contains("signature does not match: the receipt was changed after it was signed"),
            "\(edited.stderr)")
        // Mismatched: a true receipt shown against another message.
        let mismatched = try world.chest(["verify", "place.json", "time.locked"], user: "alice")
        #expect(mismatched.status != 0)
        #expect(mismatched.stderr.contains("the receipt is for message"), "\(mismatched.stderr)")
        // Forged: not a receipt at all.
        try Data("{\"format\":\"chest-receipt\"}".utf8).write(to: URL(fileURLWithPath: world.root + "/forged.json"))
        #expect(try world.chest(["verify", "forged.json", "place.locked"], user: "alice").stderr.contains("refused"))
    }
}
