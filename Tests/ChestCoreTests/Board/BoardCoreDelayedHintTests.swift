import Foundation
import Testing

@testable import ChestCore

/// Delayed hints given by the board (docs/HUNTS.md "Hints: the board's side", issue 45): when each falls due for a
/// team, by the board's own clock and what it heard, and the free give, in process.
extension BoardCoreTests {
    /// Message 1: page 1 without locks, its hint 1 costing 7 after 600 s; page 2 waiting for page 1, its hint 1
    /// costing 5 after 300 s. The hunt starts at t0 + 100.
    static func delayedHunt(ends: Date? = nil) -> HuntFile {
        var file = HuntFixture.hunt()
        let first = PageLink(message: CoreFixture.id(1), page: 1)
        file.messages = [
            CoreFixture.id(1): HuntMessage(
                title: "Clue 1",
                pages: [
                    .init(
                        key: HuntFixture.key(0x71), guarded: false,
                        hints: [.init(key: HuntFixture.key(0x81), cost: 7, after: 600)]),
                    .init(
                        key: HuntFixture.key(0x72), guarded: false,
                        hints: [.init(key: HuntFixture.key(0x82), cost: 5, after: 300)],
                        waitsFor: [[first]]),
                ])
        ]
        file.setSchedule(HuntSchedule(starts: CoreFixture.t0.addingTimeInterval(100), ends: ends))
        return file
    }

    func given(_ page: Int, key: UInt8, to reader: String, team: String = "red") -> BoardCore.HintAnswer {
        BoardCore.HintAnswer(
            team: team, message: CoreFixture.id(1), page: page, hint: 1, cost: 0, reader: reader,
            key: HuntFixture.key(key))
    }

    @Test func aDelayedHintFallsDueFromTheLaterOfTheStartAndTheTeamsFirstStatusThenFromTheCreditOfThePagesItWaitsFor()
        throws
    {
        var core = BoardCore(hunt: Self.delayedHunt(), answersHints: true)
        #expect(core.nextHintDue == nil, "no team heard yet")
        // Red is heard before the start: its page 1 is its goal from the start (100), so its hint falls due at 700.
        _ = core.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 10)))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(1), page: 1) == at(100))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(1), page: 2) == nil, "page 1 is not credited")
        #expect(core.nextHintDue == at(700))
        // Blue is heard after the start: from its first status.
        _ = core.handle(.heard(status("blue", id: 1, reader: Self.blueReader, at: 250)))
        #expect(core.goalSince(team: "blue", message: CoreFixture.id(1), page: 1) == at(250))

        #expect(core.handle(.tick(at: at(699))).isEmpty)
        let due = core.handle(.tick(at: at(700)))
        #expect(Self.answers(due) == [given(1, key: 0x81, to: Self.redReader)])
        #expect(
            Self.events(due).first
                == .hint(
                    team: "red", message: CoreFixture.id(1).rawValue, page: 1, hint: 1, cost: 0,
                    charged: true, receivedAt: at(700)))
        #expect(core.board.teams[0].points == 0 && core.board.teams[0].hints.map(\.cost) == [0], "free")
        #expect(core.nextHintDue == at(850), "blue's next")
        // Blue buys its hint before its delay: charged 7, and not given again free at 850.
        let bought = core.handle(.heard(hintRequest("blue", id: 2, hint: 1, at: 750)))
        #expect(Self.answers(bought).map(\.cost) == [7] && core.board.teams[1].points == -7)

        // Red's receipt for page 1, heard at 800, makes page 2 its goal then: due at 1,100.
        _ = core.handle(.heard(receipt("red", id: 2, message: 1, reader: Self.redReader, at: 800)))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(1), page: 2) == at(800))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(1), page: 1) == nil, "open: its hints help no more")
        #expect(core.nextHintDue == at(1100))
        #expect(core.handle(.tick(at: at(1000))).isEmpty)
        // Red asks again for the hint it was given free: answered again, at what it cost, nothing.
        let again = core.handle(.heard(hintRequest("red", id: 3, hint: 1, at: 1050)))
        #expect(Self.answers(again).map(\.cost) == [0] && core.board.teams[0].points == 1)
        // A message heard after the due moment (before the loop's tick) gives the hint first, then counts the message.
        let late = core.handle(.heard(status("red", id: 4, reader: Self.redReader, at: 1200)))
        #expect(Self.answers(late) == [given(2, key: 0x82, to: Self.redReader)])
        #expect(
            core.board.teams[0].hints.map(\.receivedAt) == [at(700), at(1200)] && core.board.teams[0].hintCost == 0)
        #expect(core.nextHintDue == nil)
    }

    @Test func aReplayedJournalGivesTheSameHintsWithoutAnsweringAgainAndNothingFallsDueAtOrAfterTheEnd() throws {
        let heard = [
            status("red", id: 1, reader: Self.redReader, at: 10),
            status("blue", id: 1, reader: Self.blueReader, at: 20),
            receipt("red", id: 2, message: 1, reader: Self.redReader, at: 800),
            status("red", id: 3, reader: Self.redReader, at: 1200),
        ]
        var live = BoardCore(hunt: Self.delayedHunt(), answersHints: true)
        var answered: [BoardCore.HintAnswer] = []
        // What the journal holds, in order, as the adapter replays it: each message, and each hint given by itself.
        var journal: [BoardCore.Input] = []
        for message in heard {
            let effects = live.handle(.heard(message))
            answered += Self.answers(effects)
            journal += Self.journal(effects).map { line -> BoardCore.Input in
                line.payload == nil ? .replayedLine(line) : .replayed(message)
            }
        }
        // Both fall due at 700 (both were heard before the start), given in the order of their names.
        #expect(answered.map(\.team) == ["blue", "red", "red"] && answered.map(\.page) == [1, 1, 2])
        #expect(journal.count == heard.count + 3)
        var restarted = BoardCore(hunt: Self.delayedHunt(), answersHints: true)
        for line in journal { #expect(Self.answers(restarted.handle(line)).isEmpty) }
        #expect(restarted.board.teams.map(\.hints) == live.board.teams.map(\.hints))
        #expect(
            restarted.nextHintDue == nil && Self.answers(restarted.handle(.tick(at: at(5000)))).isEmpty,
            "nothing given twice")
        // A board that was away when they fell due gives them when it starts.
        var away = BoardCore(hunt: Self.delayedHunt(), answersHints: true)
        for message in heard.prefix(2) { _ = away.handle(.replayed(message)) }
        #expect(
            away.nextHintDue == at(700)
                && Self.answers(away.handle(.tick(at: at(3000)))).map(\.team) == ["blue", "red"])

        // The hunt ends at 1,000: red's page 2 hint would fall due at 1,100, so the board never gives it.
        var ending = BoardCore(hunt: Self.delayedHunt(ends: at(1000)), answersHints: true)
        for message in heard.prefix(3) { _ = ending.handle(.heard(message)) }
        #expect(ending.nextHintDue == nil && ending.handle(.tick(at: at(2000))).isEmpty)
        // A board that cannot sign as the organiser gives nothing.
        var elsewhere = BoardCore(hunt: Self.delayedHunt(), answersHints: false)
        _ = elsewhere.handle(.heard(heard[0]))
        #expect(elsewhere.nextHintDue == nil && Self.answers(elsewhere.handle(.tick(at: at(5000)))).isEmpty)
    }
}

/// Issue 61, finding 8: a delayed hint of a message composed during the hunt, or of a page released during it, was
/// given free at once, its delay counted from the team's start. It counts from the latest of the team's start, the
/// moment the board first had the message, and the page's release.
extension BoardCoreTests {
    /// `delayedHunt` with message 2 (its page 1's hint free after 600 s) and message 3 (its page 1 waiting for the
    /// release "bridge", its hint free after 300 s).
    static func laterMessages() -> [MessageID: HuntMessage] {
        var messages = delayedHunt().messages ?? [:]
        messages[CoreFixture.id(2)] = HuntMessage(
            title: "Clue 2",
            pages: [
                .init(
                    key: HuntFixture.key(0x73), guarded: false,
                    hints: [.init(key: HuntFixture.key(0x83), cost: 4, after: 600)])
            ])
        messages[CoreFixture.id(3)] = HuntMessage(
            title: "Clue 3",
            pages: [
                .init(
                    key: HuntFixture.key(0x74), guarded: false,
                    hints: [.init(key: HuntFixture.key(0x84), cost: 4, after: 300)], releases: [["bridge"]])
            ])
        return messages
    }

    func release(_ name: String, id: UInt64, at seconds: Double) -> BoardCore.Heard {
        heard(
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: hunt, id: id, sent: at(seconds),
                    release: HuntRelease(name: name, key: ReleaseKey(HuntFixture.key(0x90))!))),
            topic: HuntTopic.release(hunt: hunt, name: name), at: seconds)
    }

    @Test func aMessageComposedMidHuntCountsItsDelayFromWhenTheBoardFirstHadIt() throws {
        var core = BoardCore(hunt: Self.delayedHunt(), answersHints: true)
        _ = core.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 10)))
        // The organiser composes message 2 at about 2,000; the board reads the file again then (a team named it).
        var file = Self.delayedHunt()
        file.messages = Self.laterMessages()
        let read = core.handle(.huntRead(file, at: at(2000)))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(2), page: 1) == at(2000), "not from the start")
        #expect(Self.answers(core.handle(.tick(at: at(2000)))).map(\.message) == [CoreFixture.id(1)], "page 1's only")
        #expect(core.nextHintDue == at(2600))
        #expect(Self.answers(core.handle(.tick(at: at(2599)))).isEmpty)
        #expect(Self.answers(core.handle(.tick(at: at(2600)))).map(\.message) == [CoreFixture.id(2)])
        // The journal keeps when the board first had it: a board restarted with the new file counts from 2,000 too.
        let had = Self.journal(read)
        #expect(had.map(\.had) == [[CoreFixture.id(2), CoreFixture.id(3)]] && had.map(\.at) == [at(2000)])
        var restarted = BoardCore(hunt: file, answersHints: true)
        _ = restarted.handle(.replayed(status("red", id: 1, reader: Self.redReader, at: 10)))
        for line in had { _ = restarted.handle(.replayedLine(line)) }
        #expect(restarted.goalSince(team: "red", message: CoreFixture.id(2), page: 1) == at(2000))
    }

    @Test func aReleasedPageCountsItsDelayFromItsRelease() throws {
        var file = Self.delayedHunt()
        file.messages = Self.laterMessages()
        var core = BoardCore(hunt: file, answersHints: true)
        _ = core.handle(.heard(status("red", id: 1, reader: Self.redReader, at: 10)))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(3), page: 1) == nil, "not released yet")
        _ = core.handle(.tick(at: at(1500)))
        _ = core.handle(.heard(release("bridge", id: 50, at: 1500)))
        #expect(core.goalSince(team: "red", message: CoreFixture.id(3), page: 1) == at(1500))
        #expect(Self.answers(core.handle(.tick(at: at(1799)))).isEmpty, "not free at once")
        #expect(Self.answers(core.handle(.tick(at: at(1800)))).map(\.message) == [CoreFixture.id(3)])
    }
}
