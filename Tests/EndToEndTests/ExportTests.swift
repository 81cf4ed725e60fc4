import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// Issue 25: `chest export` writes the places a reader can be guided to under the organiser's names, never a sealed
/// one; GPX read back by gpsbabel and checked against the schema, GeoJSON checked against RFC 7946.
@Suite(.realProcesses, .tags(.process)) struct ExportTests {
    static let root = GPSLogs.packageRoot.path
    static let se = Coordinate(latitude: 38.7098, longitude: -9.1330)
    static let castelo = Coordinate(latitude: 38.7139, longitude: -9.1334)

    /// A Lisbon quest built by an organiser: the cathedral visible (named by its waypoint), a viewpoint visible and
    /// named in the quest, the castle sealed. Its files are put in the reader's chest as chestd stores them.
    func lisbon(_ harness: ChestHarness) throws -> String {
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="\(Self.se.latitude)" lon="\(Self.se.longitude)"><name>Sé</name></wpt>
          <wpt lat="\(Self.castelo.latitude)" lon="\(Self.castelo.longitude)"><name>Castelo</name></wpt>
        </gpx>
        """.write(toFile: harness.root + "/lisbon.gpx", atomically: true, encoding: .utf8)
        try """
        search-area: 38.712,-9.134/2km
        message: lisbon
        title: Lisbon
        page: Start at the cathedral.
        page: The cathedral
          lock: location=lisbon.gpx#Sé/40m,visible
        page: The castle
          lock: location=lisbon.gpx#Castelo/40m
        page: The view
          lock: location=38.7126,-9.1300/30m,visible=Miradouro & co <1>
        """.write(toFile: harness.root + "/lisbon.quest", atomically: true, encoding: .utf8)
        let built = try harness.chest(
            [
                "compose", "--seal-cost", "interactive", "--quest", harness.root + "/lisbon.quest",
                "-o", harness.root + "/out",
            ], user: "organiser")
        #expect(built.status == 0, "\(built.stderr)")
        let file = harness.root + "/out/lisbon.locked"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            text.contains("\"label\" : \"Sé\"") && !text.contains("Castelo") && !text.contains("38.7139"), "\(text)")
        try FileManager.default.createDirectory(atPath: harness.chest + "/messages", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: file, toPath: harness.chest + "/messages/\(built.stdout.prefix(32)).locked")
        return harness.root + "/lisbon.quest"
    }

    func run(_ tool: String, _ arguments: [String]) throws -> Subprocess.Outcome {
        try Subprocess.run(tool, arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// gpsbabel's reading of a GPX file's waypoints (its unicsv output: No,Latitude,Longitude,Name,Description).
    func gpsbabelWaypoints(_ path: String) throws -> [(name: String, latitude: Double, longitude: Double)] {
        let csv = try run("/usr/bin/gpsbabel", ["-i", "gpx", "-f", path, "-o", "unicsv", "-F", path + ".csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        // gpsbabel ends its lines in CRLF, one Character in Swift.
        let rows = try String(contentsOfFile: path + ".csv", encoding: .utf8).split(whereSeparator: \.isNewline).map(
            Self.fields)
        guard let header = rows.first, let name = header.firstIndex(of: "Name"),
            let latitude = header.firstIndex(of: "Latitude"),
            let longitude = header.firstIndex(of: "Longitude")
        else { return [] }
        return rows.dropFirst().map { ($0[name], Double($0[latitude]) ?? .nan, Double($0[longitude]) ?? .nan) }
    }

    /// One CSV line's fields, quotes removed ("a, b" is one field).
    static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in line {
            switch character {
            case "\"": quoted.toggle()
            case "," where !quoted:
                fields.append(field)
                field = ""
            default: field.append(character)
            }
        }
        return fields + [field]
    }

    @Test func theReadersExportNamesVisiblePlacesAndLeavesSealedOnesOut() throws {
        let harness = ChestHarness()
        _ = try lisbon(harness)
        let gpx = harness.root + "/chest.gpx"
        let exported = try harness.chest(["export", "--gpx", "-o", gpx])
        #expect(exported.status == 0, "\(exported.stderr)")
        let schema = try run("/usr/bin/xmllint", ["--noout", "--schema", Self.root + "/docs/gpx-1.1-subset.xsd", gpx])
        #expect(schema.status == 0, "\(schema.stderr)")
        let waypoints = try gpsbabelWaypoints(gpx)
        #expect(waypoints.map(\.name) == ["Sé", "Miradouro & co <1>"], "\(waypoints)")
        #expect(
            waypoints.count == 2 && abs(waypoints[0].latitude - Self.se.latitude) < 1e-6
                && abs(waypoints[0].longitude - Self.se.longitude) < 1e-6)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<desc>Lisbon, page 2: within 40 m</desc>") && !text.contains("38.7139"))

        let geojson = try harness.chest(["export", "--geojson"])
        #expect(geojson.status == 0, "\(geojson.stderr)")
        let problems = RFC7946.problems(Data(geojson.stdout.utf8))
        #expect(problems.isEmpty, "\(problems)")
        let object = JSON.object(geojson.stdout)
        let features = object?["features"]?.array ?? []
        let first = features.first
        #expect((first?["properties"])?["name"]?.string == "Sé")
        #expect(
            (first?["geometry"])?["coordinates"]?.doubles == [
                Self.se.longitude, Self.se.latitude,
            ])
        #expect(features.count == 2 && !geojson.stdout.contains("38.7139"))
    }

    @Test func theOrganisersExportOfAQuestKeepsItsWaypointNamesAndNoSealedPlace() throws {
        let harness = ChestHarness()
        let quest = try lisbon(harness)
        let outcome = try harness.chest(
            ["export", "--gpx", quest, "-o", harness.root + "/quest.gpx"], user: "organiser")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("1 sealed place is not exported"), "\(outcome.stderr)")
        #expect(try gpsbabelWaypoints(harness.root + "/quest.gpx").map(\.name) == ["Sé", "Miradouro & co <1>"])
        let geojson = try harness.chest(["export", "--geojson", quest], user: "organiser")
        #expect(RFC7946.problems(Data(geojson.stdout.utf8)).isEmpty)
        #expect(!geojson.stdout.contains("Castelo") && geojson.stdout.contains("\"Sé\""))
    }

    /// A geocaching GPX taken as a quest, written back as GPX for the organiser's own GPS with --sealed: every stage,
    /// readable by gpsbabel; without --sealed none of its sealed places; --sealed without a quest is refused.
    @Test func aCourseFromAGeocachingGPXIsWrittenBackWithItsSealedPlacesOnlyWhenAsked() throws {
        let harness = ChestHarness()
        let course = Self.root + "/Tests/Fixtures/geocaching/tc99un_gpx.gpx"
        let plain = try harness.chest(["export", "--gpx", course], user: "organiser")
        #expect(plain.status == 0 && plain.stderr.contains("2 sealed places are not exported"), "\(plain.stderr)")
        #expect(!plain.stdout.contains("<wpt"))
        let written = harness.root + "/course.gpx"
        let outcome = try harness.chest(["export", "--gpx", "--sealed", course, "-o", written], user: "organiser")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        let points = try gpsbabelWaypoints(written)
        #expect(points.count == 2)
        #expect(points.map { ($0.latitude * 1e5).rounded() / 1e5 } == [43.88797, 43.88403])
        #expect(points.map { ($0.longitude * 1e5).rounded() / 1e5 } == [-110.64012, -110.63645])
        let refused = try harness.chest(["export", "--gpx", "--sealed"])
        #expect(
            refused.status == 64 && refused.stderr.contains("--sealed exports a quest's own places"),
            "\(refused.stderr)")
    }

    /// The validator finds what RFC 7946 forbids, so its silence above means something.
    @Test func theValidatorRefusesWhatRFC7946Forbids() {
        let good =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[-9.13,38.7]}}]}"#
        #expect(RFC7946.problems(Data(good.utf8)).isEmpty)
        let bad =
            #"{"type":"FeatureCollection","crs":{},"features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[38.7,-190]}},"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2]]}}]}"#
        let problems = RFC7946.problems(Data(bad.utf8))
        #expect(problems.contains("the crs member was removed by RFC 7946 (4)"))
        #expect(problems.contains("features[0] has no properties member (3.2)"))
        #expect(
            problems.contains(
                "features[0].geometry: position [38.7, -190.0] is not [longitude, latitude] in range (3.1.1)"))
        #expect(problems.contains("features[1].geometry: a LineString has two or more positions (3.1.4)"))
    }
}

/// The parts of RFC 7946 chest's exports rely on, checked structurally.
enum RFC7946 {
    static func problems(_ data: Data) -> [String] {
        guard let object = try? JSON(data), object.object != nil else {
            return ["not a JSON object"]
        }
        var problems: [String] = []
        if object["type"]?.string != "FeatureCollection" {
            problems.append("the top level is not a FeatureCollection")
        }
        if object["crs"] != nil { problems.append("the crs member was removed by RFC 7946 (4)") }
        guard let features = object["features"]?.array else { return problems + ["features is not an array (3.3)"] }
        for (index, feature) in features.enumerated() {
            guard feature.object != nil, feature["type"]?.string == "Feature" else {
                problems.append("features[\(index)] is not a Feature (3.2)")
                continue
            }
            if let properties = feature["properties"] {
                if !(properties.isNull || properties.object != nil) {
                    problems.append("features[\(index)].properties is not an object or null (3.2)")
                }
            } else {
                problems.append("features[\(index)] has no properties member (3.2)")
            }
            guard let geometry = feature["geometry"], geometry.object != nil else {
                if feature["geometry"]?.isNull != true {
                    problems.append("features[\(index)] has no geometry member (3.2)")
                }
                continue
            }
            problems += geometryProblems(geometry).map { "features[\(index)].geometry: " + $0 }
        }
        return problems
    }

    private static func geometryProblems(_ geometry: JSON) -> [String] {
        func position(_ value: JSON?) -> [String] {
            guard let numbers = value?.doubles, (2...3).contains(numbers.count) else {
                return ["a position is 2 or 3 numbers (3.1.1)"]
            }
            guard (-180...180).contains(numbers[0]), (-90...90).contains(numbers[1]) else {
                return ["position \(numbers) is not [longitude, latitude] in range (3.1.1)"]
            }
            return []
        }
        switch geometry["type"]?.string {
        case "Point": return position(geometry["coordinates"])
        case "LineString":
            guard let positions = geometry["coordinates"]?.array, positions.count >= 2 else {
                return ["a LineString has two or more positions (3.1.4)"]
            }
            return positions.flatMap { position($0) }
        default: return ["a geometry chest writes is a Point or a LineString"]
        }
    }
}
