import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// The live terminal board in the organiser's columns (`chest board --columns`, docs/HUNTS.md "Columns").
@Suite struct BoardScreenColumnsTests {
    @Test func theTerminalBoardShowsTheColumnsChosenInTheirOrder() throws {
        var hunt = HuntFile(
            id: HuntID(String(repeating: "ce", count: 16))!, name: "Hafen", broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: Data(repeating: 1, count: 32).base64EncodedString())
        hunt.teams = try ["red", "blue"].enumerated().map { index, name in
            HuntTeam(
                name: try #require(TeamName(name)), password: "pw-\(index)-0123456789ab",
                publicKey: Data(repeating: UInt8(0x20 + index), count: 32).base64EncodedString(), secretKey: nil)
        }
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
