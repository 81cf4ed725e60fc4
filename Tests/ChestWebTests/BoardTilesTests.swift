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
        let tileServer = try HTTPServer(address: HTTPAddress("127.0.0.1:0")!) { request in
            asked.paths.withLock { $0.append(request.path) }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "image/png"), ("Access-Control-Allow-Origin", "*")],
                body: .bytes(Self.png))
        }
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
}
