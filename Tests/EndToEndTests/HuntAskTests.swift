import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// A team's question and a word to one team over a real Mosquitto running examples/mosquitto/hunt.acl (docs/HUNTS.md
/// "A team's question, a word to one team", issue 57.3): red asks, the board lists it; the organiser answers red
/// alone, sealed: red's chestd tells it, blue's never hears it, and nothing on the broker carries it in the clear.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(6)))
struct HuntAskEndToEndTests {
    static func said(_ path: String) -> [JSON] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            JSON.object($0)
        }.filter { $0["event"]?.string == "said" }
    }

    @Test func aTeamAsksTheBoardListsItAndTheAnswerReachesThatTeamAloneSealed() throws {
        let acl = try HuntACLBroker()
        let broker = acl.broker
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let file = try HuntFile.read(path: hunt.huntPath)
        let organiserPassword = try #require(file.organiserPassword)
        try acl.admit(file)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])

        // Everything on the broker, as the organiser reads it, and all blue may read of the hunt.
        let everything = try broker.subscriber(
            ["chest/#"], username: HuntFile.organiserUser, password: organiserPassword)
        defer { everything.terminate() }
        let bluePassword = try #require(file.team(named: TeamName("blue")!)?.password)
        let bluesView = try broker.subscriber(["chest/\(file.id)/#"], username: "blue", password: bluePassword)
        defer { bluesView.terminate() }

        let board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        try red.startConnected()
        try blue.startConnected()
        var watches: [String: TeamWatch] = [:]
        for team in [red, blue] {
            watches[team.name] = try TeamWatch(team, timeout: 240)
        }

        // Red asks; the board lists the question with the team and the time.
        let question = "Which bridge do we cross, the old or the new one?"
        let asked = try red.world.chest(["hunt", "ask", question])
        #expect(asked.status == 0 && asked.stdout.contains("the question is sent"), "\(asked)")
        let refused = try red.world.chest(["hunt", "ask", "ring\u{7}bell"])
        #expect(refused.status == 64 && refused.stderr.contains("control characters"), "\(refused)")
        func questions() throws -> [JSON] {
            let json = try WebClient.request(port: board.port, path: "/board.json")
            let document = JSON.object(json.body)
            return document?["questions"]?.array ?? []
        }
        try hunt.organiserWorld.waitUntil("the board lists red's question", timeout: 60) { try !questions().isEmpty }
        let listed = try questions()
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["team"]?.string == "red" && listed.first?["text"]?.string == question)
        #expect(listed.first?["at"]?.string != nil && listed.first?["id"]?.int != nil, "\(listed)")
        #expect(
            board.events.contains {
                $0["event"]?.string == "asked" && $0["team"]?.string == "red" && $0["text"]?.string == question
            }, "board --json: \(board.events)")
        let page = try WebClient.request(port: board.port, path: "/")
        #expect(page.body.contains("asks: ") && page.body.contains("Which bridge do we cross"), "\(page.body)")
        #expect(everything.outputText.contains("chest/\(file.id)/red/ask/"), "\(everything.outputText)")

        // The organiser answers red alone; a team that is none of the hunt's is refused before anything is sent.
        let answer = "The old stone one, past the mill."
        let nobody = try hunt.organiser(["hunt", "say", answer, "--team", "green", "--hunt", hunt.huntPath])
        #expect(nobody.status == 64 && nobody.stderr.contains("no such team"), "\(nobody)")
        let told = try hunt.organiser(["hunt", "say", answer, "--team", "red", "--hunt", hunt.huntPath])
        #expect(told.status == 0 && told.stdout.contains("said to red alone"), "\(told)")
        let redWatch = try #require(watches["red"]).path
        try red.world.waitUntil("red's watch hears the answer", timeout: 60) { !Self.said(redWatch).isEmpty }
        let heard = try #require(Self.said(redWatch).first)
        #expect(heard["text"]?.string == answer && heard["toTeam"]?.string == "red", "\(heard)")
        let said = try #require((try red.hunt()["said"]?.array)?.last)
        #expect(said["text"]?.string == answer && said["team"]?.string == "red", "\(said)")
        let status = try red.world.chest(["status"])
        #expect(status.stdout.contains("to your team alone"), "\(status.stdout)")

        // A word to every team after it: when blue has heard that, it would have heard the answer before it.
        let toAll = "Ten minutes left."
        #expect(try hunt.organiser(["hunt", "say", toAll, "--hunt", hunt.huntPath]).status == 0)
        let blueWatch = try #require(watches["blue"]).path
        try blue.world.waitUntil("blue hears the word to every team", timeout: 60) { !Self.said(blueWatch).isEmpty }
        try red.world.waitUntil("red hears it too", timeout: 60) { Self.said(redWatch).count >= 2 }
        #expect(Self.said(blueWatch).map { $0["text"]?.string } == [toAll], "\(Self.said(blueWatch))")
        #expect(Self.said(blueWatch).allSatisfy { $0["toTeam"] == nil })
        try hunt.organiserWorld.waitUntil("blue's subscription has the word to every team", timeout: 30) {
            bluesView.outputText.contains(toAll)
        }
        #expect(!bluesView.outputText.contains("/told/"), "blue reads nothing told to red: \(bluesView.outputText)")
        try hunt.organiserWorld.waitUntil("the organiser's subscription has both words", timeout: 30) {
            everything.outputText.contains("chest/\(file.id)/organiser/told/red/")
                && everything.outputText.contains(toAll)
        }
        #expect(!everything.outputText.contains(answer), "never in the clear on the broker: \(everything.outputText)")
        #expect(!everything.outputText.contains("old stone"))

        // Blue asks while the broker is away: the question waits in blue's outbox, and the board lists it once the
        // broker is back.
        broker.kill()
        try blue.world.waitUntil("blue knows the broker is away", timeout: 60) {
            try blue.hunt()["connected"]?.bool == false
        }
        let offline = try blue.world.chest(["hunt", "ask", "May we take the bus?"])
        #expect(offline.status == 0 && offline.stdout.contains("waits in the outbox"), "\(offline)")
        try blue.world.waitUntil("blue's outbox holds it", timeout: 30) { try blue.hunt()["outbox"]?.int ?? 0 >= 1 }
        try broker.restart()
        try hunt.organiserWorld.waitUntil("the board lists blue's question once the broker is back", timeout: 120) {
            try questions().contains {
                $0["team"]?.string == "blue" && $0["text"]?.string == "May we take the bus?"
            }
        }
        #expect(try questions().map { $0["team"]?.string } == ["red", "blue"])
    }
}
