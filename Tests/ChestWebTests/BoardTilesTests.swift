import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChestWeb

/// The organiser's tiles beneath the board's map (docs/HUNTS.md "A map beneath"), the way a viewer gets them: headless
/// Chromium opens the board, Leaflet (from Debian's libjs-leaflet, served by the board) asks a tile server on
/// loopback for the tiles of the drawing's frame, and the Content-Security-Policy lets them in.
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(5)))
struct BoardTilesTests {
    /// The paths the tile server was asked for.
    final class Asked: Sendable {
        let paths = Mutex<[String]>([])
    }

    /// A tile server on loopback that answers every path with `png` and notes the paths `asked`.
    static func tileServer(_ asked: Asked) throws -> HTTPServer {
        try HTTPServer(address: HTTPAddress("127.0.0.1:0")!) { request in
            asked.paths.withLock { $0.append(request.path) }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "image/png"), ("Access-Control-Allow-Origin", "*")],
                body: .bytes(Self.png))
        }
    }

    /// A 1×1 PNG, which Leaflet stretches over its 256×256 tile.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: BoardTiles.leafletDirectory + "/leaflet.js"),
            "libjs-leaflet (make deps)"))
    func theBoardDrawsTheOrganisersTilesBeneathItsMap() throws {
        let asked = Asked()
        let tileServer = try Self.tileServer(asked)
        defer { tileServer.stop() }
        var snapshot = BoardDay.snapshot(teams: 3)
        snapshot.tiles = try BoardTiles(
            url: "http://127.0.0.1:\(tileServer.port)/{z}/{x}/{y}.png", attribution: "Tiles: the test's own")
        let board = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil), snapshot: snapshot,
            timeZone: Zone(identifier: "UTC")!)
        defer { board.stop() }
        let run = try Chromium.run(["--dump-dom", "--window-size=1920,1080", board.url])
        #expect(run.status == 0, "\(run.stderr)")
        let paths = asked.paths.withLock { $0 }
        // Tiles of the drawing's frame, at the zoom that fits it: a few kilometres of Geneva at about zoom 14.
        #expect(paths.count >= 2, "the tile server was asked \(paths)")
        #expect(paths.allSatisfy { $0.split(separator: "/").count == 3 && $0.hasSuffix(".png") }, "\(paths)")
        let zooms = Set(paths.compactMap { $0.split(separator: "/").first.flatMap { Int($0) } })
        #expect(zooms.allSatisfy { (11...17).contains($0) }, "\(zooms)")
        #expect(
            run.stdout.contains("leaflet-tile") && run.stdout.contains(#"data-tiles=""#), "\(run.stdout.prefix(2000))")
        #expect(run.stdout.contains(#"<p class="attribution">Tiles: the test's own</p>"#))
        #expect(!run.stderr.contains("Content Security Policy"), "\(run.stderr)")
        #expect(run.stdout.contains(#"data-layout="fits""#), "\(run.stdout.prefix(600))")
        if let directory = ProcessInfo.processInfo.environment["CHEST_BOARD_SCREENSHOTS"] {
            let shot = try Chromium.run([
                "--screenshot=" + directory + "/board-tiles-1920x1080.png", "--window-size=1920,1080",
                "--hide-scrollbars", board.url,
            ])
            #expect(shot.status == 0, "\(shot.stderr)")
        }
    }

    /// Issue 59 item 4: on a dark page over (light) tiles, the attribution covers none of the drawing, every label
    /// keeps its contrast (dark ink on a light halo, 4.5:1 against a light tile), and `/results` draws the same
    /// tiles beneath its map.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: BoardTiles.leafletDirectory + "/leaflet.js"),
            "libjs-leaflet (make deps)"))
    func theAttributionCoversNoLabelLabelsKeepTheirContrastAndTheResultsHaveTiles() throws {
        let asked = Asked()
        let tileServer = try Self.tileServer(asked)
        defer { tileServer.stop() }
        var snapshot = BoardDay.snapshot(teams: 12)
        snapshot.tiles = try BoardTiles(
            url: "http://127.0.0.1:\(tileServer.port)/{z}/{x}/{y}.png",
            attribution: "© OpenStreetMap contributors, tiles of the test's own server on loopback")
        let board = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil), snapshot: snapshot,
            timeZone: Zone(identifier: "UTC")!)
        defer { board.stop() }
        let probe = """
            (function () {
              function rgb(text) { return (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number); }
              function luminance(c) {
                const [r, g, b] = c.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
                return 0.2126 * r + 0.7152 * g + 0.0722 * b;
              }
              function contrast(a, b) {
                const x = luminance(a), y = luminance(b);
                return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
              }
              const svg = document.querySelector("#map svg");
              const frame = svg.getBoundingClientRect();
              const scale = Math.min(frame.width / 800, frame.height / 500);
              const drawing = { left: frame.left + (frame.width - 800 * scale) / 2, top: frame.top + (frame.height - 500 * scale) / 2 };
              drawing.right = drawing.left + 800 * scale; drawing.bottom = drawing.top + 500 * scale;
              const credit = document.querySelector(".attribution").getBoundingClientRect();
              const covers = credit.width > 0 && credit.left < drawing.right && credit.right > drawing.left
                && credit.top < drawing.bottom && credit.bottom > drawing.top;
              const section = document.querySelector("section.map").getBoundingClientRect();
              const creditShown = credit.width > 0 && credit.left >= section.left && credit.right <= section.right + 0.5
                && credit.bottom <= section.bottom + 0.5;
              const light = [238, 238, 238];
              const weak = Array.from(svg.querySelectorAll("text.label")).filter(function (label) {
                const style = getComputedStyle(label);
                return contrast(rgb(style.fill), light) < 4.5 || contrast(rgb(style.fill), rgb(style.stroke)) < 4.5
                  || parseFloat(style.strokeWidth) < 3;
              }).map(function (label) { return label.textContent + " " + getComputedStyle(label).fill; });
              return JSON.stringify({ covers: covers, creditShown: creditShown, weak: weak, labels: svg.querySelectorAll("text.label").length,
                layout: document.documentElement.dataset.layout || "" });
            })()
            """
        for (width, height) in [(1920, 1080), (1280, 720)] {
            let page = try ChromiumPage(board.url, width: width, height: height, dark: true)
            try page.waitFor("Leaflet's tiles") {
                try page.evaluate("document.querySelectorAll('.leaflet-tile').length")?.int ?? 0 > 0
            }
            let json = try #require(try page.evaluate(probe)?.string)
            let found = try JSON(json)
            let at = "\(width)×\(height)"
            #expect(found["covers"]?.bool == false, "\(at): the attribution covers the drawing")
            #expect(found["creditShown"]?.bool == true, "\(at): the attribution is not shown whole")
            #expect(
                (found["labels"]?.int ?? 0) >= 3 && (found["weak"]?.strings)?.isEmpty == true, "\(at): \(json)")
            #expect(found["layout"]?.string == "fits", "\(at): \(json)")
        }
        // The results draw the same map beneath theirs.
        let before = asked.paths.withLock { $0.count }
        let results = try ChromiumPage(board.url + "results", width: 1920, height: 1080)
        try results.waitFor("the results' tiles", timeout: 30) {
            try results.evaluate("document.querySelectorAll('.leaflet-tile').length")?.int ?? 0 > 0
        }
        try results.waitFor("the tile server asked for the results' tiles", timeout: 30) {
            asked.paths.withLock { $0.count } > before
        }
        #expect(try results.evaluate("document.querySelector('.attribution') !== null")?.bool == true)
    }
}
