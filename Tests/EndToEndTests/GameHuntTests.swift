import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The game of issue 31 played whole, over a real Mosquitto broker with two teams' chestd and the organiser's board
/// (docs/HUNTS.md "Points", "Hints", "Adjustments"): a question page whose answer is sealed, a costly hint the board
/// gives, points per page and an organiser's adjustment. Every figure on the board comes from a proof of opening or
/// from the organiser's signed word.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(6)))
struct GameHuntTests {
    static func pages(_ world: ChestHarness, _ id: String) throws -> [JSON] {
        let read = try world.chest(["read", id, "--json"])
        let report = JSON.object(read.stdout)
        return report?["pages"]?.array ?? []
    }

    @Test func twoTeamsPlayAQuestionACostlyHintPointsAndAnAdjustmentAndTheBoardsRankThemByPoints() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])
        // The clock tower: a question, two accepted answers, worth 5, with a hint that costs 2 and only the board has.
        let tower = try hunt.compose(
            "tower",
            [
                "--question", "What is Bern's clock tower called?",
                "--lock", "answer=Zytglogge|Zeitglockenturm", "--points", "5",
                "--hint", "It starts with a Z.", "--hint-cost", "2",
            ])
        // The bridge: worth the default point.
        let bridge = try hunt.compose(
            "bridge", ["--question", "Which river does the Nydeggbrücke cross?", "--lock", "answer=Aare"])
        let (towerID, bridgeID) = (try #require(hunt.ids["tower"]), try #require(hunt.ids["bridge"]))
        let board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        for team in [red, blue] {
            try hunt.give(tower, to: team)
            try hunt.give(bridge, to: team)
            try team.world.startDaemon()
        }
        for team in [red, blue] {
            try team.world.waitUntil("\(team.name) is online with both messages", timeout: 30) {
                try team.hunt()["connected"]?.bool == true && team.world.states().count == 2
            }
        }
        // The question is readable before the page opens; the text is not.
        let before = try #require(try Self.pages(red.world, towerID).first)
        #expect(before["question"]?.string == "What is Bern's clock tower called?" && before["points"]?.int == 5)
        #expect(before["text"] == nil)

        // Red asks for the hint: the board gives it, sealed to red's reader, and charges 2.
        let asked = try red.world.chest(["hint", towerID])
        #expect(asked.status == 0 && asked.stdout.contains("asked the organiser"), "\(asked)")
        try red.world.waitUntil("the board's hint opens on red's chest", timeout: 60) {
            (try Self.pages(red.world, towerID).first?["hints"]?.array)?.first?["open"]?.bool == true
        }
        let hint = try #require((try Self.pages(red.world, towerID).first?["hints"]?.array)?.first)
        #expect(hint["text"]?.string == "It starts with a Z." && hint["cost"]?.int == 2)

        // A wrong answer is counted as a wrong PIN is; the right one, written otherwise, opens the page.
        let wrong = try red.world.chest(["answer", towerID, "Big Ben"])
        #expect(wrong.status == 1 && wrong.stderr.contains("wrong answer (1 of 5"), "\(wrong.stderr)")
        let right = try red.world.chest(["answer", towerID, "  zeitGLOCKENturm "])
        #expect(right.status == 0 && right.stdout.contains("page 1 open"), "\(right)")
        let opened = try blue.world.chest(["answer", bridgeID, "aare"])
        #expect(opened.status == 0, "\(opened)")

        func team(_ name: String) -> JSON? {
            board.events.last { $0["event"]?.string == "team" && $0["team"]?.string == name }
        }
        // Red: 5 for the proven tower, less the hint's 2; blue: 1 for the bridge.
        try hunt.organiserWorld.waitUntil("the board credits both teams by their proofs", timeout: 90) {
            team("red")?["points"]?.int == 3 && team("blue")?["points"]?.int == 1
        }
        #expect(
            team("red")?["hints"]?.int == 1 && team("red")?["hintCost"]?.int == 2
                && team("red")?["pages"]?.int == 1)

        // The organiser's signed bonus puts blue ahead.
        let adjusted = try hunt.organiser([
            "hunt", "adjust", "blue", "+4", "helped", "a", "lost", "walker", "--hunt", hunt.huntPath,
        ])
        #expect(adjusted.status == 0, "\(adjusted)")
        try hunt.organiserWorld.waitUntil("the board adds blue's adjustment", timeout: 30) {
            team("blue")?["points"]?.int == 5 && team("blue")?["adjustments"]?.int == 4
        }

        // The web board ranks by points, with the hint and the adjustment's reason.
        let json = try WebClient.request(port: board.port, path: "/board.json")
        let document = try JSON(json.body)
        let rows = try #require(document["teams"]?.array)
        #expect(
            rows.map { $0["team"]?.string } == ["blue", "red"] && rows.map { $0["points"]?.int } == [5, 3],
            "\(rows)")
        let page = try WebClient.request(port: board.port, path: "/")
        #expect(page.body.contains("helped a lost walker"))
        // The opening of a question page is shown with its question, from the organiser's file.
        #expect(
            page.body.contains(#"<i class="question">"#) && page.body.contains("What is Bern&#39;s clock tower called?")
                || page.body.contains("What is Bern's clock tower called?"), "\(page.body)")
        // The terminal's leaderboard agrees.
        let once = try hunt.organiser(["board", hunt.huntPath, "--once", "--timeout", "5"])
        let table = once.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        #expect(
            Array(table.dropFirst().prefix(2).map { Array($0.prefix(3)) }) == [
                ["1", "blue", "5"], ["2", "red", "3"],
            ],
            "\(once.stdout)")
    }
}
