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

    /// Every topic below a team's name is the team's, well formed or not (issue 61: a flood on
    /// `receipt/<not-an-id>` went unrated, each message's signature checked); below a name that is no team's, one
    /// bucket for all; the organiser's own topics are not rated.
    @Test func everyTopicBelowATeamsNameCountsAndOnlyTheOrganisersDoNot() {
        var rate = TeamRate(hunt: hunt)
        let id = hunt.id.rawValue
        let organisers = [
            HuntTopic.release(hunt: hunt.id, name: "finale"), HuntTopic.schedule(hunt: hunt.id),
            HuntTopic.said(hunt: hunt.id, id: 1), HuntTopic.adjust(hunt: hunt.id, id: 2),
            HuntTopic.hint(hunt: hunt.id, team: "red", hintID: "ab-1-1"),
            // Another hunt's, not a topic the board subscribes to.
            HuntTopic.status(hunt: HuntFixture.otherHuntID, team: "red"), "chest/junk",
        ]
        for topic in organisers {
            let admitted = (0..<200).count { _ in rate.admits(topic: topic, retained: false, at: at(0)) }
            #expect(admitted == 200, "\(topic)")
        }
        #expect(rate.takeRefused().isEmpty)
        // Red's, one bucket, however the rest of the topic reads.
        let reds = [
            "chest/\(id)/red/receipt/not-an-id", "chest/\(id)/red/receipt/007", "chest/\(id)/red/hint/x",
            "chest/\(id)/red/anything/at/all", "chest/\(id)/red", status("red"),
        ]
        let admittedRed = (0..<300).count { index in
            rate.admits(topic: reds[index % reds.count], retained: false, at: at(0))
        }
        #expect(admittedRed == Int(TeamRate.burst))
        // Names that are no team's share one bucket.
        let strangers = [status("mallory"), "chest/\(id)/eve/receipt/1", "chest/\(id)//status"]
        let admittedStrangers = (0..<300).count { index in
            rate.admits(topic: strangers[index % strangers.count], retained: false, at: at(0))
        }
        #expect(admittedStrangers == Int(TeamRate.burst))
        #expect(
            rate.takeRefused()
                == [
                    TeamRate.Refused(topic: reds[Int(TeamRate.burst) % reds.count], at: at(0), count: 200),
                    TeamRate.Refused(topic: strangers[Int(TeamRate.burst) % strangers.count], at: at(0), count: 200),
                ].sorted { $0.topic < $1.topic })
    }

    /// The bucket a topic is taken from is its team level's, read in place.
    @Test func theBucketOfATopicIsItsTeamLevel() {
        let rate = TeamRate(hunt: hunt)
        let id = hunt.id.rawValue
        let expected: [String: String?] = [
            "chest/\(id)/red/status": "red", "chest/\(id)/red/receipt/42": "red", "chest/\(id)/blue/hint/7": "blue",
            "chest/\(id)/red/receipt/18446744073709551616": "red", "chest/\(id)/red/receipt/": "red",
            "chest/\(id)/red/receipt/4/2": "red", "chest/\(id)/red": "red", "chest/\(id)/red/": "red",
            "chest/\(id)/redx/status": "", "chest/\(id)//status": "", "chest/\(id)/mallory/status": "",
            "chest/\(id)/r\u{0}d/status": "", "chest/\(id)/": "",
            "chest/\(id)/release/status": nil, "chest/\(id)/organiser/status": nil,
            "chest/\(id)/organiser/hint/red/ab-1-1": nil, "chest/\(HuntFixture.otherHuntID)/red/status": nil,
            "chest/\(id)x/red/status": nil, "/chest/\(id)/red/status": nil, "owntracks/red/chest/event": nil,
            "chest/\(id)": nil,
        ]
        for (topic, bucket) in expected {
            #expect(rate.bucket(topic) == bucket, "\(topic)")
        }
    }

    @Test func theCoreTakesACountAsThatManyRefusalsShownOnce() {
        var core = BoardCore(hunt: hunt, answersHints: false)
        let first = core.handle(.unread(.tooFast, topic: status("red"), at: at(0), count: 500))
        #expect(BoardCoreTests.reasons(first) == ["tooFast"], "shown once")
        #expect(core.gate.refused[.tooFast] == 500)
        #expect(core.board.teams.first { $0.name == "red" }?.refusals["tooFast"] == 500)
        let lines = BoardCoreTests.journal(first)
        #expect(lines.count == 2 && lines[0].refused == "tooFast" && lines[1].counts == ["tooFast": ["red": 499]])
        // Within the minute: counted, neither shown nor journalled again.
        let second = core.handle(.unread(.tooFast, topic: status("red"), at: at(10), count: 70))
        #expect(BoardCoreTests.reasons(second).isEmpty && BoardCoreTests.journal(second).isEmpty)
        #expect(core.gate.refused[.tooFast] == 570)
        // Below a team's name, whatever follows it: the team's, counted (issue 61: these were not even counted).
        let junk = core.handle(
            .unread(.tooFast, topic: "chest/\(hunt.id)/red/receipt/not-an-id", at: at(11), count: 30))
        #expect(BoardCoreTests.reasons(junk).isEmpty, "red's shown once a minute, whatever its topics")
        #expect(core.gate.refused[.tooFast] == 600)
        #expect(core.board.teams.first { $0.name == "red" }?.refusals["tooFast"] == 600)
        // Below a name that is no team's: counted for the gate, shown once, nobody's.
        let stranger = core.handle(.unread(.tooFast, topic: status("mallory"), at: at(12), count: 3))
        #expect(BoardCoreTests.reasons(stranger) == ["tooFast"])
        #expect(core.gate.refused[.tooFast] == 603)
        // Dropped as the queue was full: the whole hunt's, no team's, shown once a minute, every one counted.
        let full = core.handle(.unread(.queueFull, topic: HuntTopic.all(hunt: hunt.id), at: at(13), count: 40))
        #expect(BoardCoreTests.reasons(full) == ["queueFull"])
        let fuller = core.handle(.unread(.queueFull, topic: HuntTopic.all(hunt: hunt.id), at: at(14), count: 2))
        #expect(BoardCoreTests.reasons(fuller).isEmpty)
        #expect(core.gate.refused[.queueFull] == 42)
        #expect(core.board.teams.allSatisfy { $0.refusals["queueFull"] == nil })
        let shown = core.refusals.last { if case .refused("queueFull", nil, _) = $0.event { true } else { false } }
        #expect(shown != nil, "the board says so")
        // What is not below the hunt's prefix is no team's either, and still counted.
        _ = core.handle(.unread(.tooFast, topic: "chest/junk", at: at(15), count: 3))
        #expect(core.gate.refused[.tooFast] == 606)
        let counted = BoardCoreTests.journal(core.handle(.stopping(at: at(16))))
        #expect(counted.last?.counts?["queueFull"] == ["": 41], "\(counted)")
    }
}
