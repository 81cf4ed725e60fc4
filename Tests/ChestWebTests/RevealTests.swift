import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// The ceremony (issue 56 item 5, docs/HUNTS.md "Results"): `/results?reveal=N` shows only the last N places, from
/// the last place up, and a key press (space, →) on the page reveals the next place; nothing on the screen gives away
/// a place not revealed yet.
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(5)))
struct RevealTests {
    /// The teams' names the page shows (rows not hidden, laid out) and whether a name not revealed shows anywhere.
    static let probe = """
        JSON.stringify(Array.from(document.querySelectorAll("#ranking tbody tr")).filter(function (row) {
          return !row.hidden && row.getClientRects().length > 0 && row.getBoundingClientRect().height > 0;
        }).map(function (row) { return row.dataset.team; }).concat([document.body.innerText]))
        """

    static func shown(_ page: ChromiumPage) throws -> (teams: [String], text: String) {
        let json = try #require(try page.evaluate(Self.probe)?.string)
        let all = try JSONDecoder().decode([String].self, from: Data(json.utf8))
        return (Array(all.dropLast()), all.last ?? "")
    }

    @Test func revealShowsTheLastPlacesAndAKeyRevealsTheNext() throws {
        var snapshot = BoardDay.snapshot(teams: 12)
        snapshot.schedule = HuntSchedule(
            starts: Date().addingTimeInterval(-7_200), ends: Date().addingTimeInterval(-60))
        let server = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil), snapshot: snapshot,
            timeZone: Zone(identifier: "UTC")!)
        defer { server.stop() }
        let ranking = snapshot.board.leaderboard().map(\.name)
        let page = try ChromiumPage(server.url + "results?reveal=1", width: 1920, height: 1080)
        func expectShown(_ count: Int, _ when: String) throws {
            var seen: (teams: [String], text: String) = ([], "")
            try? page.waitFor("\(count) places shown", timeout: 10) {
                seen = try Self.shown(page)
                return seen.teams.count == count
            }
            #expect(seen.teams == Array(ranking.suffix(count)), "\(when): \(seen.teams)")
            // No name of a place still to come is on the screen (the map and the teams' pages included).
            for hidden in ranking.dropLast(count) {
                #expect(!seen.text.contains(hidden), "\(when): \(hidden) shows before its place is revealed")
            }
        }
        try expectShown(1, "reveal=1")
        try page.press(" ")
        try expectShown(2, "after space")
        try page.press("ArrowRight")
        try expectShown(3, "after →")
        for _ in 3..<ranking.count { try page.press(" ") }
        try expectShown(ranking.count, "every place revealed")
        // Without reveal, every place at once, as before.
        let all = try ChromiumPage(server.url + "results", width: 1920, height: 1080)
        #expect(try Self.shown(all).teams == Array(ranking.prefix(try Self.shown(all).teams.count)))
    }
}
