import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// The live terminal board with team names of any script (docs/HUNTS.md "Team names"): its columns line up by
/// terminal columns, a wide letter taking two, and a name too long for its column is cut by columns.
@Suite struct BoardScreenNamesTests {
    /// A hunt "Hafen" of these teams, for a board that hears nothing.
    static func hunt(_ names: [String]) throws -> HuntFile {
        var hunt = HuntFile(
            id: HuntID(String(repeating: "cd", count: 16))!, name: "Hafen", broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: Data(repeating: 1, count: 32).base64EncodedString())
        hunt.teams = try names.enumerated().map { index, name in
            HuntTeam(
                name: try #require(TeamName(name)), password: "pw-\(index)-0123456789ab",
                publicKey: Data(repeating: UInt8(0x20 + index), count: 32).base64EncodedString(), secretKey: nil)
        }
        return hunt
    }

    @Test func theBoardsColumnsLineUpPastNamesOfAnyScript() throws {
        let names = ["東京", "Die Eulen", "Équipe 3", "東京東京東京東京東京", "Möwen"]
        let hunt = try Self.hunt(names)
        let feed = BoardFeed(hunt: hunt, huntPath: "/nonexistent/hunt.json", organiser: nil)
        let lines = BoardScreen(hunt: hunt).render(feed, columns: 400, rows: 40, now: Date())
        let header = try #require(lines.first { $0.hasPrefix("TEAM") })
        let points = try #require(header.range(of: "POINTS")).lowerBound.utf16Offset(in: header)
        #expect(points == 18)
        for name in names {
            let row = try #require(lines.first { $0.hasPrefix(String(name.prefix(2))) && $0.contains("never") })
            // Everything before the points ("0") takes the TEAM column's 18 terminal columns.
            let team = row.prefix { $0 != "0" }
            #expect(String(team).terminalColumns == 18, "\(name): \(lines)")
        }
        // 東京 five times takes 20 columns: cut to 16, 東京 four times, and a space.
        #expect(lines.contains { $0.hasPrefix("東京東京東京東京  0") }, "\(lines)")
    }
}
