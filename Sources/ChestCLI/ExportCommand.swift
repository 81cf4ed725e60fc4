import ChestArguments
import ChestCore
import ChestIO
import ChestSimulator
import Foundation

/// `chest export --gpx|--geojson [-o FILE] [QUEST]`: the targets and the recorded track for QGIS, OsmAnd or
/// geojson.io; or a quest's own locations, for its organiser.
struct ExportCommand: ChestCommand {
    static let name = "export"
    static let abstract = "write the targets and the recorded track as GPX or GeoJSON"
    static let synopses = ["--gpx|--geojson [-o FILE] [QUEST]"]
    static let discussion = """
        Writes every location lock of the chest's messages (a waypoint or Point named after the message and
        page, with its radius) and the track chestd recorded, as GPX 1.1 or GeoJSON, to FILE or standard
        output. Given a QUEST, writes the quest's own locations instead (docs/QUEST.md), for its organiser.
        """
    static let parameters: [Parameter] = [
        .flag("--gpx", help: "write GPX 1.1"),
        .flag("--geojson", help: "write GeoJSON (RFC 7946)"),
        .option("--output", "-o", value: "FILE", help: "the file to write (default: standard output)", completion: .files()),
        .positional("QUEST", arity: .optional, help: "a quest file: export its locations", completion: .files()),
    ]

    enum Format { case gpx, geojson }

    var format: Format
    var output: String?
    var quest: String?

    init(_ values: ParsedValues) throws(UsageError) {
        switch (values.flag("--gpx"), values.flag("--geojson")) {
        case (true, false): format = .gpx
        case (false, true): format = .geojson
        default: throw UsageError("export needs one of --gpx and --geojson")
        }
        output = values.value("--output").flatMap { $0 == "-" ? nil : $0 }
        quest = values.positional("QUEST").first
    }

    /// A named circle to export.
    struct Place {
        var name: String
        var center: Coordinate
        var radius: Double
        var open: Bool?
    }

    func run(settings: Settings) throws {
        var places: [Place] = []
        var track: [TrackLog.Point] = []
        if let quest {
            let drafts = try Rehearsal(paths: [quest]).items.map(\.draft)
            for draft in drafts {
                for (index, page) in draft.pages.enumerated() {
                    for (set, specs) in [(LockSetName.a, page.setA), (.b, page.setB)] {
                        for case let .lock(.location(center, radius)) in specs {
                            places.append(Place(name: Self.name(draft.name, page: index + 1, set: set), center: center, radius: radius))
                        }
                    }
                }
            }
        } else {
            let contents = try ChestContents(settings: settings)
            places = contents.targets.map {
                Place(name: Self.name($0.message.title, page: $0.page, set: $0.set), center: $0.center, radius: $0.radius, open: $0.open)
            }
            track = contents.track.points
        }
        let text = format == .gpx ? Self.gpx(places, track) : Self.geojson(places, track)
        if let output {
            do {
                try AtomicFile.write(Data(text.utf8), to: absolute(output))
            } catch {
                throw ChestError("cannot write \(output): \(error.errno)")
            }
        } else {
            print(text, terminator: "")
        }
    }

    static func name(_ message: String, page: Int, set: LockSetName) -> String {
        "\(message) p\(page)" + (set == .b ? " B" : "")
    }

    static func gpx(_ places: [Place], _ track: [TrackLog.Point]) -> String {
        GPX(waypoints: places.map {
            GPX.Waypoint(name: "\($0.name) (\(String(format: "%g", $0.radius)) m)", coordinate: $0.center)
        }, track: track.map {
            GPX.TrackPoint(coordinate: $0.coordinate, elevation: $0.altitudeMSL, time: $0.time)
        }).xml(creator: "chest \(ChestVersion.string)", trackName: track.isEmpty ? nil : "chest track")
    }

    static func geojson(_ places: [Place], _ track: [TrackLog.Point]) -> String {
        var features: [[String: Any]] = places.map { place in
            var properties: [String: Any] = ["name": place.name, "radius": place.radius]
            if let open = place.open { properties["open"] = open }
            return ["type": "Feature", "properties": properties,
                    "geometry": ["type": "Point", "coordinates": [place.center.longitude, place.center.latitude]]]
        }
        if track.count > 1 {
            features.append(["type": "Feature",
                             "properties": ["name": "chest track", "times": track.map { ISO8601.string($0.time) }],
                             "geometry": ["type": "LineString",
                                          "coordinates": track.map { [$0.coordinate.longitude, $0.coordinate.latitude] }]])
        }
        let collection: [String: Any] = ["type": "FeatureCollection", "features": features]
        let data = try! JSONSerialization.data(withJSONObject: collection, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
