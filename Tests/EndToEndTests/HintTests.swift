import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Page hints with a real chestd (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints"): a delayed hint opens by itself and
/// is told as a `hint` event; `chest hint` opens a free one; in a hunt over a real Mosquitto, the request reaches the
/// broker signed (waiting in the outbox while the broker is away), the organiser's signed answer opens the hint, and a
/// forged answer is refused and counted.
@Suite(.realProcesses, .tags(.process, .mosquitto), .timeLimit(.minutes(5)))
struct HintTests {
    static func json(_ text: String) -> JSON? {
        JSON.object(text)
    }

    static func hints(_ world: ChestHarness, _ id: String, page: Int = 0, user: String = "reader") throws -> [JSON] {
        let read = try world.chest(["read", id, "--json"], user: user)
        let pages = Self.json(read.stdout)?["pages"]?.array ?? []
        return pages.count > page ? pages[page]["hints"]?.array ?? [] : []
    }

    @Test func aDelayedHintOpensByItselfAndChestHintOpensAFreeOne() throws {
        let world = ChestHarness()
        // A desktop notifier that keeps its arguments.
        let bin = try world.program("notify-send", "printf '%s\\n' \"$@\" >> '\(world.root)/notified.args'")
        world.extraEnvironment = [
            "DISPLAY": ":99", "PATH": bin + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": world.root + "/xdg-run",
        ]
        try world.startDaemon()
        let path = world.root + "/bench.locked"
        let made = try world.chest(
            [
                "compose", "-o", path, "--title", "Bench", "--seal-cost", "interactive",
                "--page", "Find the bench.", "--lock", "pin=4821",
                "--hint", "Look under the bench.", "--hint-after", "4s",
                "--hint", "It is the green one.",
            ], user: "alice")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stderr.contains("hint 1 opens by itself 4 s after the page becomes the next goal"), "\(made.stderr)")
        // Outside a hunt the delayed hint's key is in the file, and compose says so plainly (issue 45).
        #expect(
            made.stderr.contains(
                "chest: warning: page 1: hint 1 has a delay (--hint-after), but its key is in the file: "
                    + "whoever has the file can read it at once"), "\(made.stderr)")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // The hints' texts are not in the file.
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!file.contains("bench.") && !file.contains("green") && file.contains("\"hints\""))

        let events = world.root + "/hint-events.jsonl"
        let watcher = try world.spawnClient(
            ["watch", "--json", "--events", "hint", "--count", "1", "--timeout", "60"],
            stdout: events, stderr: events + ".err")
        defer {
            watcher.terminate()
        }
        let imported = try world.chest(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let importedAt = Date()
        // Asked at once, the delayed hint says when it opens; it does not open early.
        let early = try world.chest(["hint", id])
        if Date().timeIntervalSince(importedAt) < 3 {
            #expect(early.status != 0 && early.stderr.contains("opens by itself at"), "\(early.stdout)\(early.stderr)")
        }
        var event: JSON = [:]
        try world.waitUntil("the hint event", timeout: 40) {
            let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
            event = lines.compactMap { Self.json(String($0)) }.first { $0["event"]?.string == "hint" } ?? [:]
            return event.object?.isEmpty == false
        }
        #expect(event["id"]?.string == id && event["page"]?.int == 1 && event["hint"]?.int == 1)
        #expect(event["text"]?.string == "Look under the bench." && event["title"]?.string == "Bench")
        let receivedText = try #require(try world.list().first { $0["id"]?.string == id }?["receivedAt"]?.string)
        let received = try #require(ISO8601.parse(receivedText))
        let at = try #require((event["at"]?.string).flatMap { ISO8601.parse($0) })
        #expect(at.timeIntervalSince(received) >= 4)

        try world.waitUntil("the desktop is told", timeout: 20) {
            let args = (try? String(contentsOfFile: world.root + "/notified.args", encoding: .utf8)) ?? ""
            return args.contains("Bench: hint 1\npage 1: Look under the bench.")
        }
        let hints = try Self.hints(world, id)
        #expect(hints.count == 2)
        #expect(hints.first?["open"]?.bool == true && hints.first?["text"]?.string == "Look under the bench.")
        #expect(hints.last?["open"]?.bool == false && hints.last?["text"] == nil)

        // The free one opens on asking, once; then there is none left.
        let asked = try world.chest(["hint", id])
        #expect(asked.status == 0 && asked.stdout.contains("It is the green one."), "\(asked.stderr)")
        let read = try world.chest(["read", id])
        #expect(
            read.stdout.contains("hint 1: Look under the bench.")
                && read.stdout.contains("hint 2: It is the green one."), "\(read.stdout)")
        let none = try world.chest(["hint", id])
        #expect(none.status != 0 && none.stderr.contains("is open"), "\(none.stderr)")
        // Kept across a restart.
        world.stopDaemon()
        try world.startDaemon()
        #expect(try Self.hints(world, id).allSatisfy { $0["open"]?.bool == true })
    }

    @Test func composeRefusesACostOutsideAHunt() throws {
        let world = ChestHarness()
        let made = try world.chest(
            [
                "compose", "-o", world.root + "/x.locked", "--title", "X", "--page", "p",
                "--hint", "h", "--hint-cost", "2",
            ], user: "alice")
        #expect(made.status != 0 && made.stderr.contains("--hint-cost needs --hunt FILE"), "\(made.stderr)")
        let early = try world.chest(
            ["compose", "-o", world.root + "/y.locked", "--title", "Y", "--hint", "h", "--page", "p"], user: "alice")
        #expect(early.status != 0 && early.stderr.contains("--hint comes before any --page"), "\(early.stderr)")
    }

    @Test func aHuntsHintKeepsItsKeyWhereTheRuleSays() throws {
        let world = ChestHarness()
        let huntPath = world.root + "/t.hunt"
        let created = try world.chest(
            ["hunt", "create", "T", "--broker", "mqtt://127.0.0.1:9", "-o", huntPath], user: "alice")
        #expect(created.status == 0, "\(created.stderr)")
        let path = world.root + "/m.locked"
        let made = try world.chest(
            [
                "compose", "-o", path, "--title", "M", "--seal-cost", "interactive", "--page", "p",
                "--lock", "pin=4821", "--hint", "by the board", "--hint-cost", "5",
                "--hint", "by itself", "--hint-after", "1h", "--hunt", huntPath,
            ], user: "alice")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!made.stderr.contains("warning"), "in a hunt the key stays with the organiser: \(made.stderr)")
        #expect(
            made.stderr.contains(
                "hint 2 is given free by the hunt's board 1 h after the page becomes the team's next goal, or earlier"),
            "\(made.stderr)")
        let id = try #require(MessageID(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let kept = try #require(try HuntFile.read(path: huntPath).messages?[id]?.pages.first?.hints)
        #expect(kept.map(\.cost) == [5, 0] && kept.map(\.after) == [nil, 3600])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let wire = try #require(Self.json(text))
        let hints = try #require(((wire["pages"]?.array)?.first)?["hints"]?.array)
        // Neither key is in the message (issue 45: a delayed hint's key in the file was free to whoever read it); the
        // delayed one says its delay, for the reader to see when the board gives it free.
        #expect(hints[0]["key"] == nil && hints[0]["cost"]?.int == 5 && hints[0]["after"] == nil)
        #expect(hints[1]["key"] == nil && hints[1]["cost"]?.int == 0 && hints[1]["after"]?.int == 3600)
        #expect(!text.contains(kept[0].key) && !text.contains(kept[1].key))

        // A released page's set keeps its release in the hunt file: the board counts the delay from it (issue 61).
        let released = try world.chest(
            [
                "compose", "-o", world.root + "/r.locked", "--title", "R", "--page", "p", "--lock", "release=bridge",
                "--hint", "on the bridge", "--hint-after", "5m", "--hunt", huntPath,
            ], user: "alice")
        let releasedID = try #require(MessageID(released.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let page = try #require(try HuntFile.read(path: huntPath).messages?[releasedID]?.pages.first)
        #expect(
            page.releases == [["bridge"]] && page.goalSets == [HuntMessage.GoalSet(pages: [], releases: ["bridge"])])
    }

    /// Issue 45: a hunt's delayed hint with a cost is not in the message file; the board gives it to the team by itself,
    /// free, once its delay has run from the team's start (no schedule: the team's first status), and the hint opens.
    @Test func theBoardGivesAHuntsDelayedHintFreeWhenItsDelayHasRun() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let path = try hunt.compose(
            "bakery",
            [
                "--lock", "pin=4821", "--hint", "Ask the baker.", "--hint-after", "4s",
                "--hint-cost", "7",
            ])
        let id = try #require(hunt.ids["bakery"])
        let messageID = try #require(MessageID(id))
        let recorded = try #require(
            try HuntFile.read(path: hunt.huntPath).messages?[messageID]?.pages.first?.hints?.first)
        #expect(recorded.cost == 7 && recorded.after == 4)
        #expect(
            !(try String(contentsOfFile: path, encoding: .utf8)).contains(recorded.key),
            "the key is only the organiser's")

        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try hunt.give(path, to: red)
        try red.world.startDaemon()
        try red.world.waitUntil("red is online with the message", timeout: 30) {
            try red.hunt()["connected"]?.bool == true && red.world.states()["bakery"] == "locked"
        }
        // Nobody asks: the board gives it, free, and the hint opens on red's chest.
        try red.world.waitUntil("the board's free hint opens on red's chest", timeout: 90) {
            try Self.hints(red.world, id).first?["open"]?.bool == true
        }
        let opened = try #require(try Self.hints(red.world, id).first)
        #expect(opened["text"]?.string == "Ask the baker." && opened["cost"]?.int == 0, "given free: \(opened)")
        // The board publishes the answer before it prints the line.
        try hunt.organiserWorld.waitUntil("the board prints the hint it gave", timeout: 30) {
            hunt.boardEvents(board).contains { $0["event"]?.string == "hint" }
        }
        let given = try #require(
            hunt.boardEvents(board).first { $0["event"]?.string == "hint" }, "\(hunt.boardEvents(board))")
        #expect(given["team"]?.string == "red" && given["cost"]?.int == 0 && given["charged"]?.bool == true)
        let team = try #require(
            hunt.boardEvents(board).last { $0["event"]?.string == "team" && $0["team"]?.string == "red" })
        #expect(team["points"]?.int == 0 && team["hints"]?.int == 1 && team["hintCost"]?.int == 0, "\(team)")
    }

    @Test func aTeamAsksTheBoardAndTheOrganisersSignedKeyOpensTheHint() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let path = try hunt.compose("bakery", ["--lock", "pin=4821", "--hint", "Ask the baker.", "--hint-cost", "2"])
        let id = try #require(hunt.ids["bakery"])
        // The key is only in the organiser's file.
        let file = try HuntFile.read(path: hunt.huntPath)
        let messageID = try #require(MessageID(id))
        let recorded = try #require(file.messages?[messageID]?.pages.first?.hints?.first)
        #expect(recorded.cost == 2 && recorded.after == nil)
        let message = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!message.contains(recorded.key))
        try hunt.give(path, to: red)
        try red.world.startDaemon()
        try red.world.waitUntil("red is online with the message", timeout: 20) {
            try red.hunt()["connected"]?.bool == true && red.world.states()["bakery"] == "locked"
        }

        // The broker goes away: the request waits in the outbox, and chest hint says so.
        broker.kill()
        try red.world.waitUntil("red knows the broker is gone", timeout: 30) {
            try red.hunt()["connected"]?.bool == false
        }
        let asked = try red.world.chest(["hint", id])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(
            asked.stdout.contains("asked the organiser") && asked.stdout.contains("costs 2 points")
                && asked.stdout.contains("waits in the outbox; it is sent when the broker is back"), "\(asked.stdout)")
        #expect(try red.hunt()["outbox"]?.int ?? 0 >= 1)
        try broker.restart()
        let requests = try hunt.subscribe("chest/\(file.id)/red/hint/+", count: 1)
        defer {
            requests.process.terminate()
        }
        let payload = try #require(try hunt.received(requests, count: 1).first)
        let request = try HuntEnvelope.decode(Data(payload.utf8))
        #expect(request.kind == .hintRequest && request.sender == "red" && HuntSigner.isValid(request))
        #expect(request.body == .hintRequest(HuntHintRequest(message: messageID, page: 1, hint: 1)))
        #expect(request.key == file.team(named: TeamName("red")!)?.publicKey)

        // A forged answer (another key, posing as the organiser) is refused and counted; the hint stays closed.
        let reader = try #require(try Identity.load(at: red.world.root + "/config-reader/chest/" + Identity.fileName))
        let hintKey = try #require(Data(base64Encoded: recorded.key))
        let sealed = try #require(HintSeal.seal(hintKey, toReader: reader.publicKeyBase64)).base64EncodedString()
        let body = HuntHint(team: "red", message: id, page: 1, hint: 1, cost: 2, sealed: sealed)
        let topic = HuntTopic.hint(hunt: file.id, team: "red", hintID: body.hintID)
        let mallory = try Identity.loadOrCreate(at: red.world.root + "/mallory.json")
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
        let forged = HuntSigner.sign(
            HuntEnvelope(hunt: file.id, id: milliseconds, sent: Date(), hint: body), with: mallory)
        try hunt.publish(topic, forged.bytes)
        try red.world.waitUntil("red refuses the forged hint", timeout: 30) {
            ((try red.hunt()["ignored"])?["unknownKey"]?.int ?? 0) >= 1
        }
        #expect(try Self.hints(red.world, id).first?["open"]?.bool == false)

        // The organiser's signed answer, the key sealed to red's reader key, opens it.
        let organiser = try #require(
            try Identity.load(at: hunt.organiserWorld.root + "/config-alice/chest/" + Identity.fileName))
        let genuine = HuntSigner.sign(
            HuntEnvelope(hunt: file.id, id: milliseconds + 1, sent: Date(), hint: body), with: organiser)
        try hunt.publish(topic, genuine.bytes, retain: true)
        try red.world.waitUntil("the hint opens", timeout: 30) {
            try Self.hints(red.world, id).first?["open"]?.bool == true
        }
        let hint = try #require(try Self.hints(red.world, id).first)
        #expect(hint["text"]?.string == "Ask the baker." && hint["cost"]?.int == 2)
        #expect(FileManager.default.fileExists(atPath: red.world.chest + "/hint-keys.json"))
    }
}
