import ChestCore
import Foundation
import Testing

@testable import ChestWeb

/// `chest board --columns LIST` (docs/HUNTS.md "Columns", issue 56.5): the web board's leaderboard in the columns
/// chosen, in their order; a list that is none is refused with the columns there are.
@Suite struct BoardColumnsTests {
    @Test func theWebBoardShowsTheColumnsChosenInTheirOrder() throws {
        var snapshot = BoardPageTests.snapshot(share: false)
        snapshot.columns = try BoardColumn.parse("rank, team, points,time,online").get()
        let table = try #require(BoardPage.sections(snapshot, timeZone: BoardPageTests.utc)["leaderboard"])
        let heads = table.matches(of: try Regex(#"<th class="[^"]*c-(\w+)""#)).compactMap {
            $0.output[1].substring.map(String.init)
        }
        #expect(heads == ["rank", "team", "points", "time", "online"], "\(table)")
        #expect(!table.contains("Says now") && !table.contains("Opened with"))
        let red = try #require(table.split(separator: "\n").first { $0.contains(#"data-team="red""#) })
        #expect(red.contains(#"<td class="rank">1</td>"#) && red.contains(#"data-score="points">"#), "\(red)")
        #expect(red.contains(#"<td class="c-online">not heard</td>"#), "\(red)")
        // Without the option, the board's own columns.
        let usual = try #require(
            BoardPage.sections(BoardPageTests.snapshot(share: false), timeZone: BoardPageTests.utc)["leaderboard"])
        #expect(usual.contains("Says now"))
    }

    @Test func aListOfNoColumnIsRefusedWithTheColumnsThereAre() {
        #expect(throws: BoardColumnError.self) { try BoardColumn.parse("rank,score").get() }
        if case let .failure(error) = BoardColumn.parse("rank,score") {
            #expect(error.description.contains("rank, team, points, pages, time"), "\(error)")
        }
        if case let .failure(error) = BoardColumn.parse("team,team") { #expect(error.description.contains("twice")) }
    }
}
