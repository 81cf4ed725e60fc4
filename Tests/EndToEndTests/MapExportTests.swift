import ChestCore
import ChestGPX
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// `chest map` and `chest export` on the track chestd recorded while gpsfake replayed the demo walk.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct MapExportTests {
    static let root = GPSLogs.packageRoot.path
    static let fountain = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let top = Coordinate(latitude: 47.377854, longitude: 8.543109)

    func run(_ tool: String, _ arguments: [String]) throws -> Subprocess.Outcome {
        try Subprocess.run(tool, arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// A chest whose chestd saw the whole demo walk, with a lock at its start and one at its top.
    func walkedChest() throws -> ChestHarness {
        let world = ChestHarness()
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("Fountain", [.location(center: Self.fountain, radius: 30)], into: world.chest)
        try alice.drop("Top", [.location(center: Self.top, radius: 25)], into: world.chest)
        let text = try String(contentsOfFile: Self.root + "/demo/walk.txt", encoding: .utf8)
            .replacingOccurrences(of: "start 2026-06-01T09:00:00Z", with: "start now")
        #expect(try world.walk(NMEAWalk(description: text)) == 0)
        return world
    }

    @Test func theMapIsDrawnByARealRendererAndShowsTheTrack() throws {
        let world = try walkedChest()
        let track = try String(contentsOfFile: world.chest + "/track.txt", encoding: .utf8)
        #expect(track.split(separator: "\n").count > 70, "\(track)")
        let map = try world.chest(["map", "-o", world.root + "/map.svg", "--png"])
        #expect(map.status == 0, "\(map.stderr)")
        let svg = try String(contentsOfFile: world.root + "/map.svg", encoding: .utf8)
        #expect(svg.contains("<polyline") && svg.contains("Fountain p1") && svg.contains("Top p1 opened"))
        #expect(svg.contains(">N</text>") && svg.contains(" m</text>"))
        #expect(try run("/usr/bin/xmllint", ["--noout", world.root + "/map.svg"]).status == 0)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") else {
            Issue.record("rsvg-convert is missing; make deps installs librsvg2-bin")
            return
        }
        let red = try run(
            "/usr/bin/python3", [Self.root + "/scripts/png-colour-count.py", world.root + "/map.png", "d62728"])
        #expect(red.status == 0, "\(red.stderr)")
        #expect((Int(red.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 500, "\(red.stdout)")

        // -o FILE.png writes a real PNG (and leaves no SVG behind); another extension is refused, writing nothing.
        let png = try world.chest(["map", "-o", world.root + "/direct.png"])
        #expect(png.status == 0, "\(png.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: world.root + "/direct.png"))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "not a PNG")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: world.root).filter { $0.contains(".chest-map-") }
                .isEmpty)
        let jpeg = try world.chest(["map", "-o", world.root + "/map.jpg"])
        #expect(jpeg.status != 0 && jpeg.stderr.contains("name the file FILE.svg or FILE.png"), "\(jpeg.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/map.jpg"))

        // Without the track, the same map has no track colour at all.
        try FileManager.default.removeItem(atPath: world.chest + "/track.txt")
        #expect(try world.chest(["map", "-o", world.root + "/bare.svg", "--png"]).status == 0)
        let none = try run(
            "/usr/bin/python3", [Self.root + "/scripts/png-colour-count.py", world.root + "/bare.png", "d62728"])
        #expect(none.stdout == "0\n")
    }

    @Test func exportsValidate() throws {
        let world = try walkedChest()
        let schema = Self.root + "/docs/gpx-1.1-subset.xsd"
        #expect(try world.chest(["export", "--gpx", "-o", world.root + "/chest.gpx"]).status == 0)
        let valid = try run("/usr/bin/xmllint", ["--noout", "--schema", schema, world.root + "/chest.gpx"])
        #expect(valid.status == 0, "\(valid.stderr)")
        let gpx = try GPX(data: Data(contentsOf: URL(fileURLWithPath: world.root + "/chest.gpx")))
        #expect(Set(gpx.waypoints.map(\.name)) == ["Fountain p1", "Top p1"])
        #expect(gpx.track.count > 70)

        let geojson = try world.chest(["export", "--geojson"])
        let object = JSON.object(geojson.stdout)
        #expect(object?["type"]?.string == "FeatureCollection")
        let features = object?["features"]?.array ?? []
        #expect(
            features.compactMap { ($0["geometry"])?["type"]?.string } == [
                "Point", "Point", "LineString",
            ])
        let point = features.first { (($0["properties"])?["name"]?.string) == "Top p1" }
        #expect(
            (point?["geometry"])?["coordinates"]?.doubles == [
                Self.top.longitude, Self.top.latitude,
            ])
        #expect((point?["properties"])?["open"]?.bool == true)

        let quest = try world.chest([
            "export", "--gpx", Self.root + "/demo/quest/hill.quest", "-o", world.root + "/quest.gpx",
        ])
        #expect(quest.status == 0, "\(quest.stderr)")
        #expect(try run("/usr/bin/xmllint", ["--noout", "--schema", schema, world.root + "/quest.gpx"]).status == 0)
        // The demo quest's places are sealed: none is exported, and the organiser is told so.
        #expect(quest.stderr.contains("2 sealed places are not exported"), "\(quest.stderr)")
        #expect(try GPX(data: Data(contentsOf: URL(fileURLWithPath: world.root + "/quest.gpx"))).waypoints.isEmpty)
    }
}
