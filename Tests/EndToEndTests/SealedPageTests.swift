import ChestCore
import ChestIO
import ChestSeal
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Sealed pages with the built chest and chestd, composed by one user and opened by another (docs/FORMAT.md
/// "Format 2", "Format 3", docs/SECURITY.md). Most compose at the interactive cost to keep the suite quick; one test
/// checks the default costs, priced per secret.
@Suite(.realProcesses, .tags(.process, .gpsd), .serialized, .timeLimit(.minutes(5)))
struct SealedPageTests {
    /// Every byte under `directory` (or of the file itself), as text, without the ISO 8601 times the files carry:
    /// a time such as 01:46:48.536Z holds "8.536", which is no coordinate.
    func allBytes(_ directory: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return "" }
        let names =
            isDirectory.boolValue
            ? (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []) : [""]
        var text = ""
        for name in names {
            let path = name.isEmpty ? directory : directory + "/" + name
            if let data = FileManager.default.contents(atPath: path) { text += String(decoding: data, as: UTF8.self) }
        }
        return text.replacingOccurrences(
            of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z"#, with: "<time>",
            options: .regularExpression)
    }

    /// Restarts chestd on gpsfake replaying the test walk, and waits until the replay is over.
    func walkThroughTheTestWalk(_ world: ChestHarness) throws {
        #expect(world.stopDaemon() == 0)
        let fake = try GPSFake(walk: GPSUnlockTests.walk(), delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        #expect(fake.waitForExit(timeout: 60) == 0, "\(fake.output)")
    }

    func compose(_ world: ChestHarness, _ file: String, _ arguments: [String]) throws -> String {
        let outcome = try world.chest(
            ["compose", "--seal-cost", "interactive", "-o", file, "--title", file] + arguments, user: "alice")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aWalkOpensASealedLocationAndLeavesOne300MetresAwayShut() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let away = GPSUnlockTests.offRoute
        let here = try compose(
            world, "here.locked",
            ["--page", "Found the first stone", "--lock", "location=\(first.latitude),\(first.longitude)/20m"])
        _ = try compose(
            world, "away.locked",
            ["--page", "Far stone text", "--lock", "location=\(away.latitude),\(away.longitude)/30m"])
        try world.startDaemon()
        #expect(try world.chest(["import", "here.locked"]).status == 0)
        #expect(try world.chest(["import", "away.locked"]).status == 0)
        let read = try world.chest(["read", here])
        #expect(
            read.stdout.contains("sealed location: go there") || read.stdout.contains("no GPS fix yet"),
            "\(read.stdout)")
        #expect(!read.stdout.contains(" away ("), "\(read.stdout)")
        // Nothing of either page is in the files or the chest before they open.
        for haystack in [allBytes(world.chest), allBytes(world.root + "/config-reader")]
            + ["here.locked", "away.locked"].map({ allBytes(world.root + "/" + $0) })
        {
            for needle in ["Found the first stone", "Far stone", "47.371", "8.54,", "47.3705", "8.536"] {
                #expect(!haystack.contains(needle), "\(needle)")
            }
        }
        try walkThroughTheTestWalk(world)
        try world.waitUntil("the sealed page opens", timeout: 120) { try world.states()["here.locked"] == "open" }
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
        let id = try compose(
            world, "both.locked",
            [
                "--page", "both", "--lock", "location=\(first.latitude),\(first.longitude)/20m",
                "--lock", "pin=4821",
            ])
        try world.startDaemon()
        #expect(try world.chest(["import", "both.locked"]).status == 0)
        let kept = try world.chest(["pin", id, "1234"])
        #expect(
            kept.status == 0 && kept.stdout.contains("PIN kept: it will be tried at each new place"), "\(kept.stderr)")
        #expect(try world.chest(["read", id]).stdout.contains("a wrong PIN and a wrong place look alike"))
        let json = try world.chest(["read", "--json", id])
        #expect(json.stdout.contains(#""protection" : "sealed""#), "\(json.stdout)")
    }

    /// Format 5 (docs/FORMAT.md "Format 5"): a place sealed with a PIN lies on cells a third as wide with 16 keys; the
    /// PIN entered before the walk is kept, and the walk past the place opens the page through chestd.
    @Test func aFormatFivePlaceWithItsPINOpensOnTheWalk() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let id = try compose(
            world, "five.locked",
            [
                "--page", "fine cells", "--lock", "location=\(first.latitude),\(first.longitude)/30m",
                "--lock", "pin=4821",
            ])
        let json =
            try JSON(Data(contentsOf: URL(fileURLWithPath: world.root + "/five.locked")))
        #expect(json["version"]?.int == 5)
        let page = try #require(json["pages"]?[0])
        #expect(((page["keyA"])?["keys"]?.strings)?.count == 16)
        // At a named level (the helper's interactive cost) a key has one lane; the default's two lanes open through
        // chestd in composeWritesCostsPricedPerSecretAndAFigureFromTheArea's PIN.
        #expect((page["keyA"])?["lanes"] == nil)
        let width =
            ((try #require(page["a"]?.array)).first { $0["cell"] != nil }?["cell"])?["width"]?.double
        #expect(width.map { $0 > 20 && $0 < 23 } == true, "\(String(describing: width))")
        try world.startDaemon()
        #expect(try world.chest(["import", "five.locked"]).status == 0)
        #expect(try world.chest(["pin", id, "4821"]).stdout.contains("PIN kept"))
        try walkThroughTheTestWalk(world)
        try world.waitUntil("the format 5 page opens", timeout: 180) { try world.states()["five.locked"] == "open" }
        #expect(try world.chest(["read", id]).stdout.contains("fine cells"))
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
            try text.replacingOccurrences(of: from, with: to).write(
                toFile: world.chest + "/" + name, atomically: true, encoding: .utf8)
        }
        try world.waitUntil("all set aside", timeout: 15) { world.names(in: "rejected").count == 6 }
        let reasons = try cases.map {
            try String(contentsOfFile: world.chest + "/rejected/\($0.0).reason", encoding: .utf8)
        }
        #expect(reasons[0].contains("exceed the reader's cap"), "\(reasons[0])")
        #expect(reasons[1].contains("cannot carry the field"), "\(reasons[1])")
        #expect(reasons[2].contains("keyA.salt"), "\(reasons[2])")
        #expect(world.daemonIsRunning)
    }

    /// A file whose sealed places would ask one fix for more Argon2id than a message may (docs/SECURITY.md "A
    /// message's share of the reader"): five pages of two places each, every place on its own grid at 4 passes and
    /// 1 GiB, all over the area the test walk crosses. Sealed by its sender as any file is; its key slots are random
    /// bytes of the right sizes, since the budget is decided from the file before any derivation.
    static func hostileFile(around center: Coordinate, pages count: Int = 5, sealedBy sender: MessageFactory) -> Message
    {
        let area = SearchArea(center: center, radius: 1000)
        var generator = SystemRandomNumberGenerator()
        func place(_ radius: Double) -> (Lock, KeySlot) {
            (
                .sealedLocation(CellGrid(area: area, radius: radius, using: &generator)),
                .cells(
                    salt: Sealer.randomBytes(16), cost: SealCost(passes: 4, memory: 1 << 30),
                    wrapped: (0..<4).map { _ in Sealer.randomBytes(72) })
            )
        }
        let pages = (0..<count).map { index in
            let a = place(20 + Double(index))
            let b = place(40 + Double(index))
            return Page(
                text: "", setA: [a.0], setB: [b.0],
                sealed: SealedPage(ciphertext: Sealer.randomBytes(296), slots: [.a: a.1, .b: b.1], version: 3))
        }
        return sender.message(title: "Ten grids", pages: pages, from: "Mallory")
    }

    @Test func aFileThatWouldBurnTheReadersCoreIsSetAsideAndAnHonestPlaceBesideItOpens() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let honest = try compose(
            world, "honest.locked",
            [
                "--page", "Found the first stone",
                "--lock", "location=\(first.latitude),\(first.longitude)/20m",
            ])
        let mallory = try MessageFactory(configDirectory: world.root + "/mallory")
        let hostile = Self.hostileFile(around: first, sealedBy: mallory)
        try world.startDaemon()
        #expect(try world.chest(["import", "honest.locked"]).status == 0)
        try MessageFile.encode(hostile).write(to: URL(fileURLWithPath: world.root + "/hostile.part"))
        try FileManager.default.moveItem(atPath: world.root + "/hostile.part", toPath: world.chest + "/hostile.locked")
        // The same file with one page (two grids, within the budget), its area 100 km away, is taken in: the file is
        // refused for what it asks, not for its form.
        let twin = Self.hostileFile(
            around: Coordinate(latitude: first.latitude + 0.9, longitude: first.longitude), pages: 1, sealedBy: mallory)
        try MessageFile.encode(twin).write(to: URL(fileURLWithPath: world.root + "/twin.locked"))
        #expect(try world.chest(["import", world.root + "/twin.locked"]).status == 0)
        try world.waitUntil("the hostile file is set aside", timeout: 30) { world.names(in: "rejected").count == 2 }
        let reason = try String(contentsOfFile: world.chest + "/rejected/hostile.locked.reason", encoding: .utf8)
        #expect(
            reason.contains(
                "ask up to 10 Argon2id runs (40 GiB-passes) of a reader for one fix, over the budget of 24"),
            "\(reason)")
        #expect(reason.contains("set aside so that it cannot hold the reader's seal worker"), "\(reason)")
        // The file is set aside before the line saying why is logged: wait for the line.
        try world.waitUntil("the log says why", timeout: 30) { world.daemonLog.contains("Argon2id runs") }
        #expect(
            try world.list().count == 2, "the honest message and the twin are in the chest, the hostile file is not")
        // The walk crosses the hostile file's area: only the honest place is derived for, and it opens.
        try walkThroughTheTestWalk(world)
        try world.waitUntil("the honest page opens", timeout: 120) { try world.states()["honest.locked"] == "open" }
        #expect(try world.chest(["read", honest]).stdout.contains("Found the first stone"))
        #expect(world.daemonIsRunning)
    }

    /// A file over the budget stored by an earlier chestd, which took it in before the budget, is set aside at start
    /// with its reason, as it would be arriving now; the honest message beside it stays.
    @Test func aStoredFileOverTheBudgetIsSetAsideAtStart() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let honest = try compose(
            world, "honest.locked",
            [
                "--page", "Found the first stone",
                "--lock", "location=\(first.latitude),\(first.longitude)/20m",
            ])
        let hostile = Self.hostileFile(
            around: first, sealedBy: try MessageFactory(configDirectory: world.root + "/mallory"))
        try FileManager.default.createDirectory(atPath: world.chest + "/messages", withIntermediateDirectories: true)
        let stored = world.chest + "/messages/\(hostile.id.rawValue).locked"
        try MessageFile.encode(hostile).write(to: URL(fileURLWithPath: stored))
        try world.startDaemon()
        #expect(try world.chest(["import", "honest.locked"]).status == 0)
        try world.waitUntil("the stored hostile file is set aside", timeout: 30) {
            world.names(in: "rejected").contains("\(hostile.id.rawValue).locked.reason")
        }
        #expect(!FileManager.default.fileExists(atPath: stored))
        let reason = try String(
            contentsOfFile: world.chest + "/rejected/\(hostile.id.rawValue).locked.reason", encoding: .utf8)
        #expect(reason.contains("over the budget of 24") && reason.contains("found in the chest at start"), "\(reason)")
        #expect(world.daemonLog.contains("asks more of this reader than it gives"), "\(world.daemonLog)")
        #expect(try world.list().compactMap { $0["id"]?.string } == [honest])
    }

    @Test func composeWritesCostsPricedPerSecretAndAFigureFromTheArea() throws {
        let world = ChestHarness()
        let place = "location=38.7139,-9.1334/30m"
        // Default costs: no --seal-cost.
        let made = try world.chest(
            [
                "compose", "-o", "lisbon.locked", "--title", "Sé", "--search-area", "38.712,-9.134/1km",
                "--page", "at the cathedral", "--lock", place, "--or", "--lock", "pin=4821",
            ], user: "alice")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Argon2id runs, about"), "progress: \(made.stderr)")
        // The figure is the best attack's: the weaker set's, here the lattice's quarter of a 1 km area's 788 cells × 1.55 s,
        // under the PIN's 12 hours.
        #expect(
            made.stderr.contains(
                "sealed by location: about 5 core-minutes by the best attack (the 198 cells of 38.71200,-9.13400/1 km with both indices even, a quarter of its 788 at 1.55 s a guess)"
            ),
            "\(made.stderr)")
        #expect(made.stderr.contains("a place alone is a small secret"), "\(made.stderr)")
        let json =
            try JSON(Data(contentsOf: URL(fileURLWithPath: world.root + "/lisbon.locked")))
        // A PIN is keyed in two lanes: format 5.
        #expect(json["version"]?.int == 5)
        let page = try #require(json["pages"]?[0])
        let keyA = try #require(page["keyA"])
        let keyB = try #require(page["keyB"])
        #expect(keyA["kind"]?.string == "cells" && (keyA["keys"]?.strings)?.count == 4)
        #expect(
            keyA["passes"]?.int == 4 && keyA["memory"]?.int == 512 << 20 && keyA["lanes"] == nil,
            "a place's default cost: \(keyA)")
        #expect(
            keyB["kind"]?.string == "argon2id" && keyB["passes"]?.int == 6 && keyB["memory"]?.int == 512 << 20
                && keyB["lanes"]?.int == 2, "a PIN's default cost: \(keyB)")
        let cell = try #require(page["a"]?[0]?["cell"])
        #expect((cell["area"])?["radius"]?.double == 1000)
        let only = try world.chest(
            [
                "compose", "-o", "place.locked", "--title", "p", "--search-area", "38.712,-9.134/1km",
                "--page", "p", "--lock", place,
            ], user: "alice")
        #expect(
            only.stderr.contains(
                "(the 198 cells of 38.71200,-9.13400/1 km with both indices even, a quarter of its 788 at 1.55 s a guess)"
            ), "\(only.stderr)")
        let onlyJSON =
            try JSON(Data(contentsOf: URL(fileURLWithPath: world.root + "/place.locked")))
        #expect(onlyJSON["version"]?.int == 3, "a place alone changes nothing in format 5")
        // A place sealed with a PIN lies, in format 5, on cells a third as wide: the lattice is one cell in 16 of nine
        // times as many, and a 30 m disk touches 9 to 16 of them. Composed at a named level here: at its own default (two
        // lanes, SealCost.Secret.placeAndPIN) its keys cost over a minute of core-time; its price and figure at
        // that default are SweepAttackTests' composePricesAPlaceWithAPINAtItsOwnCostOnTheFinerLattice.
        let withPIN = try world.chest(
            [
                "compose", "-o", "both.locked", "--title", "b", "--search-area", "38.712,-9.134/1km",
                "--page", "p", "--lock", place, "--lock", "pin=4821", "--seal-cost", "interactive",
            ], user: "alice")
        #expect(
            withPIN.stderr.contains(
                "(the 448 cells of 38.71200,-9.13400/1 km with both indices divisible by 4, one in 16 of its 7,163 × 10,000 PINs at "
            ),
            "\(withPIN.stderr)")
        let both =
            try JSON(Data(contentsOf: URL(fileURLWithPath: world.root + "/both.locked")))
        #expect(both["version"]?.int == 5)
        let bothKey = try #require(both["pages"]?[0]?["keyA"])
        #expect((bothKey["keys"]?.strings)?.count == 16, "\(bothKey)")
        let outside = try world.chest(
            [
                "compose", "-o", "x.locked", "--title", "x", "--search-area", "40,-9/2km", "--page", "p",
                "--lock", place,
            ], user: "alice")
        #expect(outside.status != 0 && outside.stderr.contains("lies outside the search area"), "\(outside.stderr)")
        // The PIN at its default cost opens the page through chestd.
        try world.startDaemon()
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try world.chest(["import", "lisbon.locked"]).status == 0)
        let right = try world.chest(["pin", id, "4821"])
        #expect(right.stdout.contains("PIN accepted: page 1 open"), "\(right.stderr)")
    }

    @Test func aFormatTwoPlaceStillOpensAndIsShownAsRecoverable() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let id = try compose(
            world, "two.locked",
            ["--format", "2", "--page", "old stone", "--lock", "location=\(first.latitude),\(first.longitude)/20m"])
        #expect(try String(contentsOfFile: world.root + "/two.locked", encoding: .utf8).contains(#""version" : 2"#))
        let preview = try world.chest(["preview", "two.locked"])
        #expect(
            preview.stdout.contains("sealed (format 2: the place can be recovered from the file"), "\(preview.stdout)")
        try world.startDaemon()
        #expect(try world.chest(["import", "two.locked"]).status == 0)
        let read = try world.chest(["read", id])
        #expect(read.stdout.contains("sealed (format 2: the place can be recovered from the file)"), "\(read.stdout)")
        try walkThroughTheTestWalk(world)
        try world.waitUntil("the format 2 page opens", timeout: 120) { try world.states()["two.locked"] == "open" }
    }

    @Test func aPageOverTheLimitIsRefusedByComposeAsReadersWould() throws {
        let world = ChestHarness()
        let long = String(repeating: "x", count: 20_001)
        for format in ["1", "3"] {
            let outcome = try world.chest(
                [
                    "compose", "--format", format, "-o", "long\(format).locked", "--title", "t",
                    "--page", long, "--lock", "pin=4821", "--seal-cost", "interactive",
                ], user: "alice")
            #expect(outcome.status != 0, "format \(format) composed a page readers refuse")
            #expect(
                outcome.stderr.contains("page 1: the text has 20001 characters, over the 20000-character limit"),
                "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: world.root + "/long\(format).locked"))
        }
        let exact = try world.chest(
            [
                "compose", "-o", "exact.locked", "--title", "t", "--page", String(repeating: "y", count: 20_000),
                "--lock", "pin=4821", "--seal-cost", "interactive",
            ], user: "alice")
        #expect(exact.status == 0, "\(exact.stderr)")
    }

    @Test func formatOneStillComposesAndShowsDistance() throws {
        let world = ChestHarness()
        let id = try compose(
            world, "old.locked", ["--format", "1", "--page", "old", "--lock", "location=47.371,8.54/20m"])
        #expect(try String(contentsOfFile: world.root + "/old.locked", encoding: .utf8).contains(#""version" : 1"#))
        try world.startDaemon()
        #expect(try world.chest(["import", "old.locked"]).status == 0)
        #expect(try world.chest(["read", id]).stdout.contains("unsealed (format 1)"))
        // A format 1 PIN hash is checked on the seal worker, as every Argon2id run is.
        let pin = try compose(
            world, "oldpin.locked", ["--format", "1", "--page", "old pin page", "--lock", "pin=4821"])
        #expect(try world.chest(["import", "oldpin.locked"]).status == 0)
        #expect(try world.chest(["pin", pin, "1111"]).stderr.contains("wrong PIN (1 of 5"))
        let right = try world.chest(["pin", pin, "4821"])
        #expect(right.stdout.contains("PIN accepted: page 1 open"), "\(right.stderr)")
    }
}
