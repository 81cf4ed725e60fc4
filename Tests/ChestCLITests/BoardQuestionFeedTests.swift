import ChestCore
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI

/// A team's questions through `chest board`'s adapter, on real files and real signatures, without a broker
/// (docs/HUNTS.md "A team's question, a word to one team"): listed with the team in the terminal's latest lines, rated
/// like every other topic of the team, and kept by the journal across a restart.
extension BoardFeedTests {
    @Test func questionsAreListedRatedAndKeptAcrossARestart() throws {
        let (hunt, team, organiser, _) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        var rate = TeamRate(hunt: hunt)
        _ = try feed.restore()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func ask(_ id: UInt64, _ text: String) throws -> Data {
            try signed(
                HuntEnvelope(hunt: hunt.id, sender: "red", id: id, sent: start, ask: HuntQuestion(text: text)), team)
        }
        let first = Self.offer(
            &feed, &rate, topic: HuntTopic.ask(hunt: hunt.id, team: "red", id: 1),
            payload: try ask(1, "Which bridge?"), retained: false, at: start)
        #expect(first == [.asked(team: "red", text: "Which bridge?", id: 1, receivedAt: start)])
        #expect(feed.latestLines(room: 5).last?.contains("red \u{1B}[1;36masks\u{1B}[0m: Which bridge?") == true)

        // A flood of questions in one second: the team's rate takes its burst, the rest is refused unchecked.
        for id in UInt64(2)...300 {
            _ = Self.offer(
                &feed, &rate, topic: HuntTopic.ask(hunt: hunt.id, team: "red", id: id),
                payload: try ask(id, "Question \(id)?"), retained: false,
                at: start.addingTimeInterval(Double(id) / 300))
        }
        let listed = feed.core.questions.count
        #expect(
            listed >= Int(TeamRate.burst) && listed <= Int(TeamRate.burst) + 2, "\(listed) questions listed of 300")
        #expect(feed.gate.refused[.tooFast, default: 0] == 300 - listed)
        feed.stop(at: start.addingTimeInterval(2))

        var again = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try again.restore()
        #expect(again.core.questions == feed.core.questions)
        let kept = try #require(again.core.questions.first)
        #expect(kept.team == "red" && kept.text == "Which bridge?" && kept.at == start && kept.id == 1)
        again.stop(at: start.addingTimeInterval(3))
    }
}
