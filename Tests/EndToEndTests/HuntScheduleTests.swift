import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The hunt's start and end, and the organiser's word to every team, over a real Mosquitto broker with real chestd
/// (docs/HUNTS.md "The hunt's start and end", "Word to all teams").
// Serialized: each test runs a broker and up to two chestd; side by side on a loaded machine they starve `chest watch`.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct HuntScheduleTests {
    /// A whole second `seconds` from now, and its ISO 8601 form.
    static func instant(_ seconds: Double) -> (date: Date, text: String) {
        let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down))
        return (date, ISO8601.string(date))
    }

    @Test func aScheduleMovedToTheNearFutureOpensAHeldPageOnlyAtTheStart() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        try red.startConnected()

        // The organiser sets the start an hour ahead: the team hears it, and a page whose lock holds stays shut.
        let far = Self.instant(3600)
        let scheduled = try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--starts", far.text])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(try HuntFile.read(path: hunt.huntPath).starts == far.date, "written to the organiser's file")
        try red.world.waitUntil("red hears the start", timeout: 20) { try red.hunt()["starts"]?.string == far.text }
        let message = try hunt.compose("held", ["--lock", "time=2020-01-01T00:00:00Z"])
        try hunt.give(message, to: red)
        let id = try #require(hunt.ids["held"])
        try red.world.waitUntil("red has the page", timeout: 20) { try red.world.states()["held"] == "locked" }
        let read = try red.world.chest(["read", id])
        #expect(read.stdout.contains("the hunt starts in"), "\(read.stdout)")

        // Moved to the near future: the page opens then, not before. The board publishes its start key
        // (docs/HUNTS.md "The start key") at the start in force; `hunt start` would move the start to now.
        let near = Self.instant(20)
        #expect(try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--starts", near.text]).status == 0)
        try red.world.waitUntil("red hears the new start", timeout: 20) {
            try red.hunt()["starts"]?.string == near.text
        }
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        if Date() < near.date.addingTimeInterval(-1) { #expect(try red.world.states()["held"] == "locked") }
        try red.world.waitUntil("the page opens at the start", timeout: 90) { try red.world.states()["held"] == "open" }
        let opened = try JSON(red.world.chest(["read", id, "--json"]).stdout)
        let openedAt = try #require(
            ((opened["pages"]?.array)?.first?["openedAt"]?.string).flatMap { ISO8601.parse($0) })
        #expect(openedAt >= near.date, "opened at \(openedAt), the hunt starts at \(near.date)")
        #expect(
            opened["huntStarts"]?.string == near.text && opened["huntEnds"] == nil, "read --json says the window")
        // A restart without the broker keeps the schedule it heard.
        broker.kill()
        red.world.stopDaemon()
        try red.world.startDaemon()
        #expect(try red.hunt()["starts"]?.string == near.text)
    }

    @Test func aWordToAllTeamsIsToldOnceAlsoToATeamThatJoinsLater() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.startConnected()
        let watch = red.world.root + "/watch.jsonl"
        let watcher = try red.world.spawnClient(
            ["watch", "--json", "--timeout", "120"], stdout: watch, stderr: watch + ".err")
        defer {
            watcher.terminate()
        }
        func said(_ path: String) -> [JSON] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                JSON.object($0)
            }.filter { $0["event"]?.string == "said" }
        }

        let spoken = try hunt.organiser(["hunt", "say", "Meet at the fountain at noon.", "--hunt", hunt.huntPath])
        #expect(spoken.status == 0, "\(spoken.stderr)")
        try red.world.waitUntil("red's watch hears the word", timeout: 30) { !said(watch).isEmpty }
        let first = try #require(said(watch).first)
        #expect(first["text"]?.string == "Meet at the fountain at noon.")
        #expect(first["hunt"]?.string == (try HuntFile.read(path: hunt.huntPath).id.rawValue))
        #expect(first["at"]?.string != nil)

        // A restarted chestd hears the retained word again and does not tell it again; a new word it tells.
        red.world.stopDaemon()
        try red.world.startDaemon()
        try red.world.waitUntil("red is connected again", timeout: 20) { try red.hunt()["connected"]?.bool == true }
        let again = red.world.root + "/watch-again.jsonl"
        let second = try red.world.spawnClient(
            ["watch", "--json", "--timeout", "120"], stdout: again, stderr: again + ".err")
        defer {
            second.terminate()
        }
        #expect(try hunt.organiser(["hunt", "say", "Ten minutes left.", "--hunt", hunt.huntPath]).status == 0)
        try red.world.waitUntil("red hears the new word", timeout: 30) { !said(again).isEmpty }
        #expect(said(again).map { $0["text"]?.string } == ["Ten minutes left."])
        #expect(
            said(watch).count { $0["text"]?.string == "Meet at the fountain at noon." } == 1,
            "a watcher that follows chestd across its restart hears the first word once too")

        // Blue joins after both were said: the broker kept them, and blue is told each once.
        #expect(try blue.world.chest(["hunt", "leave"]).status == 0)
        try blue.world.startDaemon()
        let late = blue.world.root + "/watch.jsonl"
        let blueWatch = try blue.world.spawnClient(
            ["watch", "--json", "--timeout", "120"], stdout: late, stderr: late + ".err")
        defer {
            blueWatch.terminate()
        }
        #expect(try blue.world.chest(["hunt", "join", blue.world.root + "/join.hunt"]).status == 0)
        try blue.world.waitUntil("blue hears both words", timeout: 30) { said(late).count >= 2 }
        #expect(
            Set(said(late).compactMap { $0["text"]?.string }) == [
                "Meet at the fountain at noon.", "Ten minutes left.",
            ])
        #expect(said(late).count == 2)
        let status = try blue.world.chest(["status"])
        #expect(status.stdout.contains("Ten minutes left."), "\(status.stdout)")
        // The board shows them among its latest events (--json: one `said` line each).
        try red.world.waitUntil("the board has both words", timeout: 30) {
            hunt.boardEvents(board).count { $0["event"]?.string == "said" } == 2
        }
    }

    @Test func aWordOrScheduleNotSignedByTheOrganiserIsRefusedAndCounted() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        try red.startConnected()
        let file = try HuntFile.read(path: hunt.huntPath)
        let mallory = try Identity.loadOrCreate(at: red.world.root + "/mallory.json")
        let word = HuntSigner.sign(
            HuntEnvelope(hunt: file.id, id: 7, sent: Date(), said: HuntSaid(text: "The hunt is cancelled.")),
            with: mallory)
        try hunt.publish(HuntTopic.said(hunt: file.id, id: 7), word.bytes, retain: true)
        let schedule = HuntSigner.sign(
            HuntEnvelope(
                hunt: file.id, id: 8, sent: Date(), schedule: HuntSchedule(starts: Date().addingTimeInterval(86_400))),
            with: mallory)
        try hunt.publish(HuntTopic.schedule(hunt: file.id), schedule.bytes, retain: true)
        try red.world.waitUntil("red refuses both", timeout: 20) {
            (try red.hunt()["ignored"])?["unknownKey"] == 2
        }
        #expect(try red.hunt()["starts"] == nil && red.hunt()["said"] == nil)
    }

    /// The web board follows the schedule in force: a moved end reaches `/board.json` and the page's stream though
    /// no team sends anything (docs/HUNTS.md "The board in a browser").
    @Test func theWebBoardFollowsAMovedEnd() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--quiet"])
        defer { board.stop() }
        func ends() throws -> String? {
            let body = try WebClient.request(port: board.port, path: "/board.json").body
            return (JSON.object(body))?["ends"]?.string
        }
        for seconds in [7_200.0, 10_800] {
            let end = Self.instant(seconds)
            #expect(try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--ends", end.text]).status == 0)
            try hunt.organiserWorld.waitUntil("the web board has the end \(end.text)", timeout: 20) {
                try ends() == end.text
            }
            let page = try WebClient.request(port: board.port, path: "/").body
            #expect(page.contains(#"data-ends="\#(end.text)""#), "the page's clock counts to the new end")
        }
    }

    @Test func theBoardCreditsNothingReceivedAfterTheEndAndShowsTheFinalRanking() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        // The organiser's file says the hunt ended a minute ago; red's chestd never heard it (nothing was published).
        var file = try HuntFile.read(path: hunt.huntPath)
        file.setSchedule(HuntSchedule(ends: Date().addingTimeInterval(-60)))
        try file.write(to: hunt.huntPath)
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.world.startDaemon()
        try hunt.give(try hunt.compose("late", ["--lock", "time=2020-01-01T00:00:00Z"]), to: red)
        try red.world.waitUntil("the page opens for red", timeout: 20) { try red.world.states()["late"] == "open" }
        try red.world.waitUntil("the board refuses the late receipt", timeout: 30) {
            hunt.boardEvents(board).contains {
                $0["event"]?.string == "refused" && $0["reason"]?.string == "afterEnd"
            }
        }
        #expect(!hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" })
        let once = try hunt.organiser(["board", hunt.huntPath, "--once"])
        #expect(once.status == 0 && once.stdout.contains("red"), "\(once.stderr)")
        #expect(
            once.stdout.split(separator: "\n").dropFirst().first?.split(
                separator: " ", omittingEmptySubsequences: true)[2] == "0",
            "\(once.stdout)")
    }

    @Test func scheduleAndWordMistakesGetAClearError() throws {
        let world = ChestHarness()
        func chest(_ arguments: [String]) throws -> Subprocess.Outcome { try world.chest(arguments, user: "alice") }
        let backwards = try chest([
            "hunt", "create", "Spring", "--broker", "mqtt://127.0.0.1:1883",
            "--starts", "2027-05-02T16:00:00Z", "--ends", "2027-05-02T14:00:00Z",
        ])
        #expect(backwards.status == 64 && backwards.stderr.contains("must end after it starts"), "\(backwards.stderr)")
        let garbled = try chest(["hunt", "create", "Spring", "--broker", "mqtt://127.0.0.1:1883", "--starts", "noon"])
        #expect(
            garbled.status == 64 && garbled.stderr.contains("--starts noon: not an ISO 8601 time"), "\(garbled.stderr)")
        let made = try chest([
            "hunt", "create", "Spring", "--broker", "mqtt://127.0.0.1:1", "-o", "s.hunt",
            "--starts", "2027-05-02T14:00:00+02:00", "--ends", "2027-05-02T18:00:00+02:00",
        ])
        #expect(
            made.status == 0 && made.stdout.contains("starts 2027-05-02T12:00:00Z, ends 2027-05-02T16:00:00Z"),
            "\(made.stdout)")
        let path = world.root + "/s.hunt"
        let file = try HuntFile.read(path: path)
        #expect(file.version == 2 && file.ends == ISO8601.parse("2027-05-02T16:00:00Z"))
        #expect(try chest(["hunt", "schedule", "--hunt", path]).stdout.contains("starts 2027-05-02T12:00:00Z"))
        let early = try chest(["hunt", "schedule", "--hunt", path, "--ends", "2027-05-02T11:00:00Z"])
        #expect(early.status == 64 && early.stderr.contains("must end after it starts"), "\(early.stderr)")
        #expect(try HuntFile.read(path: path) == file, "a refused schedule changes nothing")
        for text in ["", "   ", String(repeating: "x", count: 501), "bell\u{7}"] {
            let bad = try chest(["hunt", "say", text, "--hunt", path])
            #expect(bad.status == 64 && bad.stderr.contains("the word to the teams"), "\(bad.stderr)")
        }
        // A team's join file is refused, so is a file of version 2 with its schedule taken out by hand.
        #expect(try chest(["hunt", "team", "add", "red", "--hunt", path, "-o", "red.hunt"]).status == 0)
        let joined = try HuntFile.read(path: world.root + "/red.hunt")
        #expect(
            joined.starts == file.starts && joined.ends == file.ends && joined.version == 2,
            "the join file has the schedule")
        #expect(
            try chest(["hunt", "schedule", "--hunt", world.root + "/red.hunt", "--starts", "none"]).stderr.contains(
                "join file"))
    }
}
