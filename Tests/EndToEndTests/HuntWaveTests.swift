import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The event's shape over a real Mosquitto broker (docs/HUNTS.md "A clock for each team", "A finish", "Several
/// devices in one team", issue 56): teams start in waves with a limit each, a finish page stops a team's clock, and one
/// team plays on two laptops (two chestd joined with one join file), all with real chestd and a real board.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(8)))
struct HuntWaveTests {
    static func read(_ world: ChestHarness, _ id: String) throws -> JSON {
        let outcome = try world.chest(["read", id, "--json"])
        return JSON.object(outcome.stdout) ?? [:]
    }

    static func hintOpen(_ world: ChestHarness, _ id: String) throws -> Bool {
        let pages = try read(world, id)["pages"]?.array
        return (pages?.first?["hints"]?.array)?.first?["open"]?.bool == true
    }

    @Test func wavesWithALimitEachAFinishAndOneTeamOnTwoLaptops() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])
        // Red's second laptop joins with red's own join file under another device name.
        let laptop = ChestHarness()
        let join = red.world.root + "/join.hunt"
        #expect(try red.world.chest(["hunt", "join", join, "--device", "laptop-1"]).status == 0)
        let joined = try laptop.chest(["hunt", "join", join, "--device", "laptop-2"])
        #expect(joined.status == 0 && joined.stdout.contains("device laptop-2"), "\(joined)")
        let badDevice = try laptop.chest(["hunt", "join", join, "--device", "my laptop"])
        #expect(badDevice.status == 64 && badDevice.stderr.contains("a device's name"), "\(badDevice)")

        // The second wave (blue) starts in an hour; each team has ten minutes from its own start.
        let later = ISO8601.string(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down)))
        let scheduled = try hunt.organiser([
            "hunt", "schedule", "--hunt", hunt.huntPath, "--starts", later, "--limit", "10m",
        ])
        #expect(scheduled.status == 0 && scheduled.stdout.contains("each team 10 min"), "\(scheduled)")
        let opening = try hunt.compose(
            "opening", ["--lock", "release=go", "--hint", "look up", "--hint-cost", "2"])
        let finish = try hunt.compose("finish", ["--lock", "release=go", "--finish"])
        let file = try HuntFile.read(path: hunt.huntPath)
        let (openingID, finishID) = (try #require(hunt.ids["opening"]), try #require(hunt.ids["finish"]))
        #expect(file.messages?[MessageID(finishID)!]?.pages.first?.finish == true, "the finish is in the file")
        let startKey = try #require(file.releases?[.start]?.base64)

        var board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        let worlds = [red.world, laptop, blue.world]
        for world in worlds {
            try world.startDaemon()
            for path in [opening, finish] {
                let destination = world.chest + "/" + URL(fileURLWithPath: path).lastPathComponent
                try FileManager.default.copyItem(atPath: path, toPath: destination + ".part")
                try FileManager.default.moveItem(atPath: destination + ".part", toPath: destination)
            }
        }
        for world in worlds {
            try world.waitUntil("connected, both messages waiting for the start key", timeout: 60) {
                let connected = (try world.status()["hunt"])?["connected"]?.bool == true
                let finishWaits = try Self.read(world, finishID)["awaitsStartKey"]?.bool == true
                let openingWaits = try Self.read(world, openingID)["awaitsStartKey"]?.bool == true
                return connected && finishWaits && openingWaits
            }
        }

        // The first wave: red alone, now. Its start key is sealed to red: nowhere in the clear on the broker.
        let sealedStart = try hunt.subscribe(HuntTopic.start(hunt: file.id, team: "red"), count: 1)
        defer {
            sealedStart.process.terminate()
        }
        let started = try hunt.organiser(["hunt", "start", "--hunt", hunt.huntPath, "--team", "red"])
        #expect(started.status == 0 && started.stdout.contains("started red"), "\(started)")
        let payload = try #require(try hunt.received(sealedStart, count: 1).first)
        #expect(!payload.contains(startKey) && payload.contains("\"kind\":\"start\""), "\(payload)")
        let again = try hunt.organiser(["hunt", "start", "--hunt", hunt.huntPath, "--team", "red"])
        #expect(again.status != 0 && again.stderr.contains("already"), "\(again)")

        // Red asks for the hint on both laptops while the board is away (a board answers in milliseconds, and its
        // answer opens the hint on both, so the second laptop would have nothing left to ask): both requests wait
        // on the broker, and the board started again hears both. Charged once, opened on both.
        for world in [red.world, laptop] {
            try world.waitUntil("red's start key arrived", timeout: 60) {
                try Self.read(world, openingID)["awaitsStartKey"] == nil
            }
        }
        board.stop()
        for world in [red.world, laptop] {
            let asked = try world.chest(["hint", openingID])
            #expect(asked.status == 0 && asked.stdout.contains("asked the organiser"), "\(asked)")
        }
        board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        for world in [red.world, laptop] {
            try world.waitUntil("the hint opens on each of red's laptops", timeout: 90) {
                try Self.hintOpen(world, openingID)
            }
        }
        #expect(try Self.read(blue.world, openingID)["awaitsStartKey"]?.bool == true, "blue's wave is later")

        // The release opens both pages on red's laptops; blue, without its start key, opens nothing on any clock.
        #expect(try hunt.organiser(["hunt", "release", "go", "--hunt", hunt.huntPath]).status == 0)
        for world in [red.world, laptop] {
            try world.waitUntil("both of red's pages open on each laptop", timeout: 90) {
                try world.states()["opening"] == "open" && world.states()["finish"] == "open"
            }
        }
        func rows() throws -> [JSON] {
            let json = try WebClient.request(port: board.port, path: "/board.json")
            let document = JSON.object(json.body)
            return document?["teams"]?.array ?? []
        }
        func row(_ team: String) throws -> JSON { try rows().first { $0["team"]?.string == team } ?? [:] }
        var seen: JSON = [:]
        do {
            try hunt.organiserWorld.waitUntil("red finished, each page and the hint counted once", timeout: 60) {
                seen = try row("red")
                return seen["finished"]?.string != nil && seen["pages"]?.int == 2 && seen["hintCost"]?.int == 2
                    && (seen["devices"]?.array)?.count == 2
            }
        } catch {
            Issue.record("red's row: \(seen); the board said: \(board.events.suffix(20))")
            throw error
        }
        let redRow = try row("red")
        #expect(redRow["points"]?.int == 0 && redRow["hints"]?.int == 1, "2 pages less a hint of 2: \(redRow)")
        #expect(redRow["time"]?.int != nil && redRow["started"]?.string != nil && redRow["closes"]?.string != nil)
        let devices = try #require(redRow["devices"]?.array)
        #expect(devices.map { $0["name"]?.string } == ["laptop-1", "laptop-2"])
        #expect(devices.allSatisfy { $0["online"]?.bool == true && $0["lastHeard"]?.string != nil })
        #expect(try blue.world.states()["opening"] == "locked" && blue.world.states()["finish"] == "locked")
        #expect(try Self.read(blue.world, openingID)["awaitsStartKey"]?.bool == true)
        let status = try red.world.chest(["status"])
        #expect(status.stdout.contains("left"), "red's chestd shows its time left: \(status.stdout)")

        // Everyone else starts now: blue's pages open, and it finishes too; equal points rank by time.
        let rest = try hunt.organiser(["hunt", "start", "--hunt", hunt.huntPath])
        #expect(rest.status == 0, "\(rest)")
        try blue.world.waitUntil("blue's pages open at its own start", timeout: 90) {
            try blue.world.states()["opening"] == "open" && blue.world.states()["finish"] == "open"
        }
        try hunt.organiserWorld.waitUntil("blue finished", timeout: 60) { try row("blue")["time"]?.int != nil }
        // Red's bonus evens the points (blue took no hint): the shorter time from a team's own start ranks first.
        #expect(try hunt.organiser(["hunt", "adjust", "red", "+2", "even", "--hunt", hunt.huntPath]).status == 0)
        try hunt.organiserWorld.waitUntil("red's bonus counted", timeout: 60) { try row("red")["points"]?.int == 2 }
        let ranked = try rows()
        let times = ranked.compactMap { $0["time"]?.int }
        #expect(ranked.map { $0["points"]?.int } == [2, 2] && times.count == 2 && times[0] <= times[1], "\(ranked)")
        let once = try hunt.organiser(["board", hunt.huntPath, "--once", "--timeout", "5"])
        #expect(once.stdout.contains("TIME") && once.stdout.contains("finished 0:"), "\(once.stdout)")
        #expect(once.stdout.contains("2/2") || once.stdout.contains("0/2"), "red's devices: \(once.stdout)")
    }

    @Test func aReceiptTheBoardHearsAfterTheTeamsOwnLimitIsRefusedAsAfterLimit() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let later = ISO8601.string(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down)))
        #expect(
            try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--starts", later, "--limit", "20s"])
                .status == 0)
        let page = try hunt.compose("late", ["--lock", "time=2020-01-01T00:00:00Z"])
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.startConnected()
        #expect(try hunt.organiser(["hunt", "start", "--hunt", hunt.huntPath, "--team", "red"]).status == 0)
        try red.world.waitUntil("red's own window, 20 s from now", timeout: 60) {
            try red.hunt()["closes"]?.string != nil
        }
        let closes = try #require((try red.hunt()["closes"]?.string).flatMap { ISO8601.parse($0) })
        // Red opens the page in its time while the broker is away; its receipt reaches the board after red's time.
        broker.kill()
        try hunt.give(page, to: red)
        try red.world.waitUntil("the page opens in red's time", timeout: 30) {
            try red.world.states()["late"] == "open"
        }
        try red.world.waitUntil("the receipt waits in the outbox", timeout: 20) {
            try red.hunt()["outbox"]?.int ?? 0 >= 1
        }
        let lateID = try #require(hunt.ids["late"])
        let pages = try Self.read(red.world, lateID)["pages"]?.array
        let opened = try #require((pages?.first?["openedAt"]?.string).flatMap { ISO8601.parse($0) })
        #expect(opened < closes, "opened at \(opened), red's time ran out at \(closes)")
        try red.world.waitUntil("red's time runs out", timeout: 60) { Date() > closes.addingTimeInterval(1) }
        try broker.restart()
        try red.world.waitUntil("the board refuses it as afterLimit", timeout: 90) {
            hunt.boardEvents(board).contains {
                $0["event"]?.string == "refused" && $0["reason"]?.string == "afterLimit"
            }
        }
        #expect(!hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" })
    }
}
