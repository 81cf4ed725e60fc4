import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// A team's questions on the board in a browser and in `/board.json` (docs/HUNTS.md "A team's question, a word to one
/// team"): shown as text in the latest events, listed with team, text, time and id.
@Suite struct BoardQuestionPageTests {
    @Test func aQuestionIsShownAsTextAndListedInTheJSON() throws {
        let hostile = "<script>alert(1)</script> which bridge?"
        let at = BoardPageTests.t0
        var snapshot = BoardPageTests.snapshot(share: false)
        snapshot.unlocks = [
            BoardSnapshot.Logged(at: at, event: .asked(team: "red", text: hostile, id: 3, receivedAt: at))
        ]
        snapshot.asked = [
            try ChestJSON.decoder().decode(
                BoardCore.HeardQuestion.self,
                from: Data(#"{"team":"red","text":"\#(hostile)","at":"2027-01-15T08:00:00Z","id":3}"#.utf8))
        ]
        let latest = try #require(BoardPage.sections(snapshot, timeZone: BoardPageTests.utc)["latest"])
        #expect(latest.contains(#"<li class="asked""#) && latest.contains("asks: "), "\(latest)")
        #expect(!latest.contains("<script>") && latest.contains("&lt;script&gt;"), "\(latest)")

        let document = try JSON(BoardJSON.data(snapshot))
        let questions = try #require(document["questions"]?.array)
        #expect(questions.count == 1)
        #expect(questions.first?["team"]?.string == "red" && questions.first?["text"]?.string == hostile)
        #expect(questions.first?["at"]?.string == "2027-01-15T08:00:00Z" && questions.first?["id"]?.int == 3)
        let latestEvents = try #require(document["latest"]?.array)
        #expect(latestEvents.first?["event"]?.string == "asked", "\(latestEvents)")
    }
}
