import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// The live terminal board in the organiser's columns (`chest board --columns`, docs/HUNTS.md "Columns").
@Suite struct BoardScreenColumnsTests {
    @Test func theTerminalBoardShowsTheColumnsChosenInTheirOrder() throws {
        let hunt = try BoardScreenNamesTests.hunt(["red", "blue"])
        let feed = BoardFeed(hunt: hunt, huntPath: "/nonexistent/hunt.json", organiser: nil)
        var screen = BoardScreen(hunt: hunt)
        screen.chosenColumns = [.team, .points, .online]
        let lines = screen.render(feed, columns: 120, rows: 30, now: Date())
        let header = try #require(lines.first { $0.hasPrefix("TEAM") })
        #expect(header.split(separator: " ") == ["TEAM", "POINTS", "ONLINE"], "\(lines)")
        #expect(lines.contains { $0.hasPrefix("red ") && $0.hasSuffix("not heard") }, "\(lines)")
        #expect(!lines.contains { $0.contains("LAST CREDITED") })
    }
}
