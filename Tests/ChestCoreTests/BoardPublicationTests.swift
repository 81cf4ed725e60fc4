import ChestCore
import Foundation
import Testing

/// When the board hands the browsers a snapshot (docs/HUNTS.md "The board in a browser"): at once for up to 500
/// teams, when something they show changed; above that at most every 0.2 ms a team, every event kept in order; a
/// change of the broker's state always at once.
@Suite struct BoardPublicationTests {
    let shown = BoardPublication.Shown(connection: .connected, word: nil, schedule: HuntSchedule(), ignored: [:])
    let refusal = BoardEvent.refused(reason: "badSignature", team: "red", why: "one")
    let another = BoardEvent.refused(reason: "badSignature", team: "blue", why: "two")

    @Test func upTo500TeamsEveryChangeIsShownAtOnceAndNothingElse() {
        var publication = BoardPublication(teams: 500)
        #expect(publication.interval == 0)
        #expect(publication.take([], showing: shown, at: 0) == [])
        #expect(publication.take([], showing: shown, at: 0) == nil)
        #expect(publication.take([refusal], showing: shown, at: 0) == [refusal])
        var newWord = shown
        newWord.word = 7
        #expect(publication.take([], showing: newWord, at: 0) == [])
        var counted = newWord
        counted.ignored = [.tooFast: 3]
        #expect(publication.take([], showing: counted, at: 0) == [])
        var moved = counted
        moved.schedule = HuntSchedule(starts: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(publication.take([], showing: moved, at: 0) == [])
        #expect(publication.take([], showing: moved, at: 0) == nil)
    }

    @Test func fiveThousandTeamsSeeTheBoardOnceASecondWithEveryEventInOrder() {
        var publication = BoardPublication(teams: 5_000)
        #expect(publication.interval == 1)
        #expect(publication.take([], showing: shown, at: 10) == [])
        #expect(publication.take([refusal], showing: shown, at: 10.4) == nil)
        #expect(publication.take([another], showing: shown, at: 10.9) == nil)
        #expect(publication.take([], showing: shown, at: 11.0) == [refusal, another])
        var away = shown
        away.connection = .reconnecting("gone")
        #expect(publication.take([], showing: away, at: 11.1) == [], "the broker's state at once")
    }
}
