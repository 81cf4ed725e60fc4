import ChestCore
import ChestIO
import Foundation
import FoundationXML
import Testing

@testable import ChestWeb

/// The board's map (docs/HUNTS.md "The board in a browser", "A map beneath"): labels that never overlap, however
/// many teams stand in one place, and the organiser's tiles beneath, from Leaflet the board serves itself.
@Suite struct BoardMapTests {
    /// The boxes of the map's labels, as the layout sized them: from each `<text>`'s position and its text.
    static func labelBoxes(_ svg: String) -> [MapLabelLayout.Box] {
        svg.components(separatedBy: "\n").filter { $0.hasPrefix("<text class=\"label") && !$0.contains("note") }
            .compactMap { line in
                func number(_ name: String) -> Double? {
                    line.range(of: " \(name)=\"").flatMap { Double(line[$0.upperBound...].prefix { $0 != "\"" }) }
                }
                guard let x = number("x"), let y = number("y"), let start = line.range(of: ">"),
                    let end = line.range(of: "</text>")
                else { return nil }
                let text = String(line[start.upperBound..<end.lowerBound])
                return MapLabelLayout.Box(
                    x: x - 2, y: y - BoardMap.labelSize,
                    width: MapLabelLayout.width(of: text, fontSize: BoardMap.labelSize),
                    height: BoardMap.labelSize * 1.3)
            }
    }

    static func overlaps(_ boxes: [MapLabelLayout.Box]) -> Int {
        var count = 0
        for (index, box) in boxes.enumerated() { count += boxes[(index + 1)...].count { $0.intersects(box) } }
        return count
    }

    @Test(arguments: [3, 40])
    func labelsNeverOverlapWhenTeamsStandTogether(teams: Int) throws {
        // Every team's last position is the same spot: before, their names were printed over each other.
        let snapshot = BoardDay.snapshot(teams: teams, together: true)
        let svg = try #require(BoardPage.sections(snapshot, timeZone: Zone(identifier: "UTC")!)["map"])
        let boxes = Self.labelBoxes(svg)
        #expect(boxes.count >= min(teams, 3), "\(svg)")
        #expect(Self.overlaps(boxes) == 0, "\(svg)")
        #expect(boxes.allSatisfy { $0.x >= 0 && $0.maxX <= BoardMap.width && $0.y >= 0 && $0.maxY <= BoardMap.height })
        if teams == 40 { #expect(svg.contains("labels left out"), "the names with no room are counted") }
        _ = try XMLDocument(xmlString: svg)
    }

    /// Issue 59 item 4: no target on the frame's edge (a margin of a tenth of the frame), and no target's label
    /// dropped for a team's, however many teams stand on it.
    @Test(arguments: [3, 40])
    func targetsKeepAMarginAndTheirLabels(teams: Int) throws {
        let snapshot = BoardDay.snapshot(teams: teams, together: true)
        let svg = try #require(BoardPage.sections(snapshot, timeZone: Zone(identifier: "UTC")!)["map"])
        let circles = svg.components(separatedBy: "\n").filter { $0.hasPrefix(#"<circle class="target""#) }
        #expect(circles.count == BoardDay.titles.count)
        for line in circles {
            func number(_ name: String) -> Double {
                line.range(of: " \(name)=\"").flatMap { Double(line[$0.upperBound...].prefix { $0 != "\"" }) } ?? -1
            }
            let (x, y, r) = (number("cx"), number("cy"), number("r"))
            #expect(
                x - r >= BoardMap.width / 10 - 0.5 && x + r <= BoardMap.width * 0.9 + 0.5
                    && y - r >= BoardMap.height / 10 - 0.5 && y + r <= BoardMap.height * 0.9 + 0.5,
                "\(teams) teams: \(line)")
        }
        for target in snapshot.targets {
            // A label too long for the frame is shortened, never dropped.
            let label = HTML.escaped(target.label ?? "\(target.title) p\(target.page)")
            let drawn =
                svg.contains(">\(label)</text>")
                || svg.contains(">\(label.prefix(12))") && svg.contains("\u{2026} p\(target.page)</text>")
            #expect(drawn, "\(teams) teams: the label of \(label) was dropped")
        }
    }

    @Test func theOrganisersTilesComeWithLeafletAndThePolicyAllowsTheirSourceOnly() throws {
        #expect(throws: BoardTiles.TilesError.self) {
            try BoardTiles(url: "https://tile.example.org/tiles.png", attribution: "x")
        }
        #expect(throws: BoardTiles.TilesError.self) {
            try BoardTiles(url: "ftp://tile.example.org/{z}/{x}/{y}.png", attribution: "x")
        }
        #expect(throws: BoardTiles.TilesError.self) {
            try BoardTiles(url: "https://tile.example.org/{z}/{x}/{y}.png", attribution: " ")
        }
        #expect(throws: BoardTiles.TilesError.self) {
            try BoardTiles(url: "https://a;b/{z}/{x}/{y}.png", attribution: "x")
        }
        let osm = try BoardTiles(
            url: "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")
        #expect(osm.origin == "https://*.tile.openstreetmap.org")
        var snapshot = BoardDay.snapshot(teams: 3)
        snapshot.tiles = osm
        let sections = BoardPage.sections(snapshot, timeZone: Zone(identifier: "UTC")!)
        let page = BoardPage.document(huntName: "h", sections: sections, tiles: osm)
        #expect(
            page.contains(#"<script src="/leaflet/leaflet.js" defer></script>"#)
                && page.contains(#"href="/leaflet/leaflet.css""#))
        #expect(page.contains(#"<div id="tiles" data-url="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png">"#))
        #expect(page.contains(#"<p class="attribution">© OpenStreetMap contributors</p>"#))
        #expect(
            sections["map"]?.contains(#" data-bounds=""#) == true
                && sections["map"]?.contains(#"class="tiled""#) == true)
        #expect(
            !BoardPage.document(
                huntName: "h", sections: BoardPage.sections(BoardDay.snapshot(teams: 3), timeZone: .current)
            ).contains("leaflet"))

        let state = BoardServerState(
            access: BoardAccess(token: nil), snapshot: snapshot, timeZone: Zone(identifier: "UTC")!)
        func get(_ path: String) -> HTTPResponse {
            state.respond(to: HTTPRequest(method: "GET", path: path, argument: { _ in nil }, cookie: { _ in nil }))
        }
        func policy(_ path: String) -> String {
            get(path).headers.first(where: { $0.0 == "Content-Security-Policy" })?.1 ?? ""
        }
        #expect(
            policy("/").contains("img-src 'self' data: https://*.tile.openstreetmap.org;")
                && policy("/").contains("script-src 'self';"),
            "\(policy("/"))")
        let styles = policy("/board.css")
        #expect(styles.contains("img-src 'self' data:;") && !styles.contains("openstreetmap"))
        #expect(get("/leaflet/../../../etc/passwd").status == 404 && get("/leaflet/leaflet.esm.js").status == 404)
        if FileManager.default.fileExists(atPath: BoardTiles.leafletDirectory + "/leaflet.js") {
            #expect(get("/leaflet/leaflet.js").status == 200 && get("/leaflet/images/layers.png").status == 200)
        }
    }
}
