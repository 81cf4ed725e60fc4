import Foundation
import Testing

@testable import ChestCore

/// The board's rate per team (docs/HUNTS.md "A team that floods"), as `chest board`'s network thread checks it before
/// the loop sees a message: a team's burst, then one a second; only a team's own topics count, never what the broker
/// hands over on subscribing; refusals are kept as one count a team until the loop takes them. And the core takes
/// such a count as that many refusals, shown once.
@Suite struct TeamRateTests {
    let hunt = HuntFixture.hunt()
    func at(_ seconds: Double) -> Date { CoreFixture.t0.addingTimeInterval(seconds) }
    func status(_ team: String) -> String { HuntTopic.status(hunt: hunt.id, team: team) }

    @Test func aTeamGetsItsBurstThenOneASecondAndTheRefusalsAreCountedOnceATeam() {
        var rate = TeamRate(hunt: hunt)
        let admitted = (0..<150).count { _ in rate.admits(topic: status("red"), retained: false, at: at(0)) }
        #expect(admitted == Int(TeamRate.burst))
        // Another team's pace is its own.
        let blue = rate.admits(topic: HuntTopic.receipt(hunt: hunt.id, team: "blue", id: 1), retained: false, at: at(0))
        // Retained: what the broker hands over on subscribing, not the team's pace.
        let retained = rate.admits(topic: status("red"), retained: true, at: at(0.5))
        let hint = rate.admits(
            topic: HuntTopic.hintRequest(hunt: hunt.id, team: "red", id: 3), retained: false, at: at(0.5))
        #expect(blue && retained && !hint)
        let refused = rate.takeRefused()
        #expect(
            refused == [TeamRate.Refused(topic: status("red"), at: at(0), count: 51)],
            "one count for red, its first refusal's topic and time")
        let again = rate.takeRefused()
        #expect(again.isEmpty, "taken once")
        // A second later, one more.
        let later = [
            rate.admits(topic: status("red"), retained: false, at: at(1.5)),
            rate.admits(topic: status("red"), retained: false, at: at(1.5)),
        ]
        #expect(later == [true, false])
        let last = rate.takeRefused()
        #expect(last == [TeamRate.Refused(topic: status("red"), at: at(1.5), count: 1)])
    }

    @Test func onlyATeamsOwnTopicsCount() {
        var rate = TeamRate(hunt: hunt)
        let others = [
            HuntTopic.release(hunt: hunt.id, name: "finale"), HuntTopic.schedule(hunt: hunt.id),
            HuntTopic.said(hunt: hunt.id, id: 1), HuntTopic.adjust(hunt: hunt.id, id: 2),
            HuntTopic.hint(hunt: hunt.id, team: "red", hintID: "ab-1-1"),
            // Not a team of this hunt, another hunt, not a topic the board reads: the gate refuses them, unrated.
            status("mallory"), HuntTopic.status(hunt: HuntFixture.otherHuntID, team: "red"), "chest/junk",
        ]
        for topic in others {
            let admitted = (0..<200).count { _ in rate.admits(topic: topic, retained: false, at: at(0)) }
            #expect(admitted == 200, "\(topic)")
        }
        let refused = rate.takeRefused()
        #expect(refused.isEmpty)
    }

    /// The rate reads a topic's team in place, for speed: it must say what `HuntTopic.parse` says.
    @Test func theTeamOfATopicIsWhatParseSays() {
        let rate = TeamRate(hunt: hunt)
        let id = hunt.id.rawValue
        let topics = [
            "chest/\(id)/red/status", "chest/\(id)/red/receipt/42", "chest/\(id)/blue/hint/7",
            "chest/\(id)/red/receipt/18446744073709551615", "chest/\(id)/red/receipt/18446744073709551616",
            "chest/\(id)/red/receipt/007", "chest/\(id)/red/receipt/", "chest/\(id)/red/receipt/4/2",
            "chest/\(id)/red/receipt/-1", "chest/\(id)/red/receipt", "chest/\(id)/red/statusx", "chest/\(id)/red/",
            "chest/\(id)/red", "chest/\(id)//status", "chest/\(id)/mallory/status", "chest/\(id)/red/unlock",
            "chest/\(id)/red/hint/x", "chest/\(id)/release/status", "chest/\(id)/organiser/status",
            "chest/\(id)/organiser/hint/red/ab-1-1", "chest/\(HuntFixture.otherHuntID)/red/status",
            "chest/\(id)x/red/status", "/chest/\(id)/red/status", "owntracks/red/chest/event",
            "chest/\(id)/r\u{0}d/status",
        ]
        for topic in topics {
            let parsed: String? =
                switch HuntTopic.parse(topic, hunt: hunt.id) {
                case .receipt(let team, _)?, .status(let team)?, .hintRequest(let team, _)?:
                    hunt.teams.contains { $0.name.rawValue == team } ? team : nil
                default: nil
                }
            #expect(rate.team(topic) == parsed, "\(topic)")
        }
    }

    @Test func theCoreTakesACountAsThatManyRefusalsShownOnce() {
        var core = BoardCore(hunt: hunt, answersHints: false)
        let first = core.handle(.tooFast(topic: status("red"), at: at(0), count: 500))
        #expect(BoardCoreTests.reasons(first) == ["tooFast"], "shown once")
        #expect(core.gate.refused[.tooFast] == 500)
        #expect(core.board.teams.first { $0.name == "red" }?.refusals["tooFast"] == 500)
        let lines = BoardCoreTests.journal(first)
        #expect(lines.count == 2 && lines[0].refused == "tooFast" && lines[1].counts == ["tooFast": ["red": 499]])
        // Within the minute: counted, neither shown nor journalled again.
        let second = core.handle(.tooFast(topic: status("red"), at: at(10), count: 70))
        #expect(BoardCoreTests.reasons(second).isEmpty && BoardCoreTests.journal(second).isEmpty)
        #expect(core.gate.refused[.tooFast] == 570)
        // What is not a team's topic is nobody's to count.
        #expect(core.handle(.tooFast(topic: "chest/junk", at: at(11), count: 3)).isEmpty)
        #expect(core.gate.refused[.tooFast] == 570)
    }
}
