import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// What the projector shows (issue 59, items 3 and 4; docs/HUNTS.md "On a projector"), measured in headless Chromium
/// by the test's own script, not the page's: a long hunt name wraps or shrinks and the results link stays on the
/// screen; a Latest line keeps its team and page number and cuts the title; pages reached before the start are
/// said in the row and the Latest line; equal points show a tie ("=3"); "Reached" is the time of the last page; the
/// map gets the room it needs, its labels readable.
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(10)))
struct ProjectorTests {
    static let longName =
        "The great spring hunt through the old town, the parks, the harbour and the lake shore, for everyone"

    /// Runs in the page; returns what it found as JSON.
    static let probe = """
        (function () {
          const found = {};
          const width = innerWidth, height = innerHeight;
          function inside(inner, outer) {
            return inner.width > 0 && inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5
              && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
          }
          const screen = { left: 0, top: 0, right: width, bottom: height };
          const link = document.querySelector('a[href="/results"]');
          const linkBox = link ? link.getBoundingClientRect() : null;
          found.link = !!linkBox && inside(linkBox, screen)
            && inside(linkBox, link.parentElement.getBoundingClientRect())
            && document.elementFromPoint(linkBox.left + linkBox.width / 2, linkBox.top + linkBox.height / 2) === link;
          const name = document.querySelector("header h1");
          found.nameWhole = name.scrollWidth <= name.clientWidth + 1 && name.scrollHeight <= name.clientHeight + 1;
          found.nameFontPx = parseFloat(getComputedStyle(name).fontSize);
          // Latest: the part of each shown line that says the team and the page, inside the line.
          found.lines = 0; found.wholeLines = 0; found.early = 0; found.earlyShown = 0; found.cut = [];
          for (const item of document.querySelectorAll("#latest li")) {
            if (item.hidden || item.getClientRects().length === 0) { continue; }
            const said = item.getAttribute("title") || "";
            const match = said.match(/^(.+?) opened .* page (\\d+)/);
            if (!match) { continue; }
            found.lines += 1;
            const box = item.getBoundingClientRect();
            function shown(text) {
              const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
              let last = null;
              for (let node = walker.nextNode(); node && !last; node = walker.nextNode()) {
                const at = node.data.indexOf(text);
                if (at >= 0) { last = [node, at]; }
              }
              if (!last) { return false; }
              const range = document.createRange();
              range.setStart(last[0], last[1]);
              range.setEnd(last[0], last[1] + text.length);
              const seen = range.getBoundingClientRect();
              if (!inside(seen, box)) { return false; }
              // Not under an ellipsis: the element holding it shows it whole.
              const holder = last[0].parentElement.closest("span, b, li");
              const edge = holder.getBoundingClientRect();
              return seen.right <= edge.right + 0.5;
            }
            const whole = shown(match[1]) && shown("page " + match[2]);
            if (whole) { found.wholeLines += 1; } else { found.cut.push(said.slice(0, 60)); }
            if (said.indexOf("reached before the start") >= 0) {
              found.early += 1;
              if (shown("reached before the start")) { found.earlyShown += 1; }
            }
          }
          // The map: its drawing's size on the screen, and its labels' in pixels.
          const svg = document.querySelector("#map svg");
          const frame = svg.getBoundingClientRect();
          const scale = Math.min(frame.width / 800, frame.height / 500);
          found.map = [Math.round(800 * scale), Math.round(500 * scale)];
          const sizes = Array.from(svg.querySelectorAll("text.label")).map(function (label) {
            return parseFloat(getComputedStyle(label).fontSize) * scale;
          });
          found.smallestLabel = sizes.length ? Math.min.apply(null, sizes) : 0;
          // Each row: team, place, points, Reached's time, pages, and what it says of early pages (shown whole; a
          // row on another page of the leaderboard says it in its DOM).
          found.ranks = Array.from(document.querySelectorAll("#leaderboard tbody tr")).map(function (row) {
            let early = "";
            for (const element of row.querySelectorAll("td *")) {
              if (element.children.length > 0 || element.textContent.indexOf("reached before the start") < 0) { continue; }
              if (row.hidden) { early = element.textContent; continue; }
              const box = element.getBoundingClientRect(), cell = element.closest("td").getBoundingClientRect();
              if (box.width > 0 && box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5) { early = element.textContent; }
            }
            return [row.dataset.team, row.cells[0].textContent, row.cells[2].textContent,
              (row.cells[4].querySelector("time") || {}).dateTime || "", row.cells[3].textContent, early];
          });
          found.layout = document.documentElement.dataset.layout;
          return JSON.stringify(found);
        })()
        """

    struct Found: Decodable {
        var link: Bool
        var nameWhole: Bool
        var nameFontPx: Double
        var lines: Int
        var wholeLines: Int
        var early: Int
        var earlyShown: Int
        var cut: [String]
        var map: [Int]
        var smallestLabel: Double
        var ranks: [[String]]
        var layout: String?
    }

    static func look(_ page: ChromiumPage) throws -> Found {
        let json = try #require(try page.evaluate(Self.probe)?.string)
        return try JSONDecoder().decode(Found.self, from: Data(json.utf8))
    }

    @Test(arguments: [3, 40])
    func theProjectorShowsTheLinkWholeLatestLinesEarlyPagesTiesAndARoomyMap(teams: Int) throws {
        let names = BoardDay.projectorNames(teams)
        var snapshot = BoardDay.snapshot(teams: teams, names: names, earlyTeam: "owls")
        snapshot.huntName = Self.longName
        snapshot.schedule = HuntSchedule(
            starts: Date().addingTimeInterval(-3_600), ends: Date().addingTimeInterval(7_200))
        let server = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil),
            snapshot: snapshot, timeZone: Zone(identifier: "UTC")!)
        defer { server.stop() }
        let ranking = snapshot.board.leaderboard()
        let owls = try #require(ranking.first { $0.name == "owls" })
        for (width, height) in BoardLayoutTests.sizes {
            let page = try ChromiumPage(server.url, width: width, height: height, dark: true)
            try page.waitFor("the page's layout check") {
                try page.evaluate("document.documentElement.dataset.layout")?.string != nil
            }
            let found = try Self.look(page)
            let at = "\(teams) teams at \(width)×\(height)"
            #expect(found.layout == "fits", "\(at): \(found.layout ?? "no check")")
            #expect(found.link, "\(at): the results link is not on the screen")
            #expect(found.nameWhole, "\(at): the hunt's name is cut")
            #expect(found.nameFontPx >= 14, "\(at): the name's type is \(found.nameFontPx) px")
            #expect(found.lines >= 3 && found.wholeLines == found.lines, "\(at): \(found.cut)")
            #expect(found.early >= 1 && found.earlyShown == found.early, "\(at): early pages in Latest")
            // The row says it too, whole, whatever columns the screen keeps.
            let owlsRow = try #require(found.ranks.first { $0[0] == "owls" })
            #expect(owlsRow[5] == "\(owls.earlyPages) reached before the start", "\(at): \(owlsRow)")
            // Equal points show a tie (for teams that never gained a point, equal pages too: they rank by pages); a
            // lone score its rank.
            for (index, row) in found.ranks.enumerated() where !row[1].isEmpty {
                let team = ranking[index]
                let tied = ranking.enumerated().contains { other in
                    other.offset != index && other.element.isRanked && other.element.points == team.points
                        && (other.element.lastPointAt == nil) == (team.lastPointAt == nil)
                        && (team.lastPointAt != nil || other.element.pages.count == team.pages.count)
                }
                #expect(row[1].hasPrefix("=") == tied, "\(at): row \(index) \(row) tied \(tied)")
            }
            // The leader's Reached is its last page, not the bonus heard later.
            let leader = try #require(ranking.first)
            let lastPage = try #require(leader.pages.map(\.receivedAt).max())
            #expect(found.ranks[0][3] == ISO8601.string(lastPage), "\(at): \(found.ranks[0])")
            // The map's room and its labels' size.
            if width == 1920 {
                #expect(found.map[0] >= 760 && found.map[1] >= 475, "\(at): the map is \(found.map)")
                #expect(found.smallestLabel >= 20, "\(at): labels of \(found.smallestLabel) px")
            } else {
                #expect(found.smallestLabel >= 14, "\(at): labels of \(found.smallestLabel) px")
            }
        }
    }
}
