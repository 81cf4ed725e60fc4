import Foundation
import Testing

@testable import ChestCore

/// A clock for each team and a finish (docs/HUNTS.md "A clock for each team", "A finish", issue 56), in process: each
/// team's own start and limit decide what the board credits and charges, a finish page stops a team's clock, and
/// equal points rank by time.
extension BoardCoreTests {
    /// `scoredHunt` with message 4: one proven page worth 1, the finish.
    static func finishHunt(_ schedule: HuntSchedule) -> HuntFile {
        var file = scoredHunt()
        var finish = HuntMessage.PageKey(key: HuntFixture.key(0x74), guarded: false)
        finish.finish = true
        file.messages?[CoreFixture.id(4)] = HuntMessage(title: "Finish", pages: [finish])
        file.setSchedule(schedule)
        return file
    }

    @Test func eachTeamPlaysItsLimitFromItsOwnStartAndWhatComesAfterIsRefusedAsAfterLimit() {
        // Red starts by hand at 100 (a first wave), blue at the hunt's start, 1,000; each has 600 s.
        let schedule = HuntSchedule(
            starts: at(1000), ends: at(10_000), limit: 600, teams: ["red": at(100)])
        var core = BoardCore(hunt: Self.finishHunt(schedule), answersHints: true)
        _ = core.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 50)))
        _ = core.handle(.heard(status("blue", id: 1, reader: Self.blueReader, at: 50)))
        #expect(core.board.teams.map(\.startedAt) == [at(100), at(1000), at(1000)])
        #expect(core.board.teams.map(\.closesAt) == [at(700), at(1600), at(1600)])

        #expect(
            Self.reasons(core.handle(.heard(receipt("red", id: 2, message: 2, reader: Self.redReader, at: 200)))) == [])
        #expect(
            Self.reasons(core.handle(.heard(receipt("blue", id: 2, message: 2, reader: Self.blueReader, at: 200))))
                == ["beforeStart"], "blue's wave has not started")
        #expect(
            Self.reasons(core.handle(.heard(receipt("red", id: 3, message: 1, reader: Self.redReader, at: 701))))
                == ["afterLimit"])
        let late = core.handle(.heard(hintRequest("red", id: 4, hint: 1, at: 702)))
        #expect(Self.reasons(late) == ["afterLimit"] && Self.answers(late).isEmpty, "not answered, not charged")
        #expect(
            Self.reasons(core.handle(.heard(receipt("blue", id: 3, message: 2, reader: Self.blueReader, at: 1200))))
                == [])
        #expect(
            Self.reasons(core.handle(.heard(receipt("blue", id: 4, message: 1, reader: Self.blueReader, at: 1601))))
                == ["afterLimit"])
        #expect(core.board.teams.map(\.points) == [1, 1, 0] && core.board.teams.map(\.hintCost) == [0, 0, 0])
        #expect(core.gate.refused[.afterLimit] == 3)
    }

    @Test func aFinishStopsTheTeamsClockAndEqualPointsRankByTheShorterTimeFromItsOwnStart() {
        // Red starts at 100 by hand, blue and green at 200; no limit.
        let schedule = HuntSchedule(starts: at(200), ends: at(10_000), teams: ["red": at(100)])
        var core = BoardCore(hunt: Self.finishHunt(schedule), answersHints: true)
        let greenReader = HuntFixture.key(0x33)
        for (team, reader) in [("red", Self.redReader), ("blue", Self.blueReader), ("green", greenReader)] {
            _ = core.handle(.heard(status(team, id: 1, reader: reader, at: 150)))
            _ = core.handle(.heard(receipt(team, id: 2, message: 2, reader: reader, at: 300)))
        }
        // Red and blue reach the finish at the same moment: red has played 100 s longer.
        _ = core.handle(.heard(receipt("red", id: 3, message: 4, reader: Self.redReader, at: 1000)))
        _ = core.handle(.heard(receipt("blue", id: 3, message: 4, reader: Self.blueReader, at: 1000)))
        // Green never finishes but has as many points: a bonus of 1.
        _ = core.handle(.heard(adjust("green", 1, "tidy", id: 9, at: 400)))
        #expect(core.board[team: "red"]?.time == 900 && core.board[team: "blue"]?.time == 800)
        #expect(core.board[team: "green"]?.time == nil)
        #expect(core.board.leaderboard().map(\.name) == ["blue", "red", "green"])
        // After its finish a team's clock is stopped, not its game: a page heard later (opened at the same moment, or
        // on another device) still counts, and the time stays.
        let after = core.handle(.heard(receipt("blue", id: 4, message: 1, reader: Self.blueReader, at: 1100)))
        #expect(
            Self.reasons(after) == [] && core.board[team: "blue"]?.points == 5 && core.board[team: "blue"]?.time == 800)
        #expect(core.board.leaderboardText().contains("finished 0:13:20"))
    }

    @Test func theScheduleGivesEachTeamItsWindowAndSaysWhyItIsWrong() {
        let schedule = HuntSchedule(starts: at(1000), ends: at(2000), limit: 1800, teams: ["red": at(100)])
        #expect(schedule.forTeam("red").starts == at(100) && schedule.forTeam("red").closes == at(1900))
        #expect(schedule.forTeam("blue").closes == at(2000), "the hunt's end comes before blue's limit")
        #expect(schedule.forTeam("red").outside(receivedAt: at(1900)) == .afterLimit)
        #expect(schedule.forTeam("blue").outside(receivedAt: at(2000)) == .afterEnd)
        #expect(schedule.forTeam("red").countdown(at: at(1840)) == "1 min left")
        #expect(schedule.forTeam("red").countdown(at: at(1900)) == "your time is up")
        #expect(HuntSchedule(limit: 60).problem?.contains("needs a start") == true)
        #expect(HuntSchedule(starts: at(0), limit: 0).problem?.contains("1 s to 7 days") == true)
        #expect(HuntSchedule(starts: at(0), ends: at(10), teams: ["red": at(20)]).problem != nil)
    }
}
