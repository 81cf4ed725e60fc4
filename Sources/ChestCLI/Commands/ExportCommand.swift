import ChestArguments
import ChestCore
import ChestGPX
import ChestIO
import ChestSimulator
import FoundationEssentials
import Glibc

/// `chest export --gpx|--geojson [-o FILE] [QUEST]`: the targets and the recorded track for QGIS, OsmAnd or
/// geojson.io; or a quest's own locations, for its organiser.
struct ExportCommand: ChestCommand {
    static let name = "export"
    static let abstract = "write the targets and the recorded track as GPX or GeoJSON"
    static let synopses = ["--gpx|--geojson [-o FILE] [QUEST]", "--gpx --sealed [--geocaching] [-o FILE] QUEST"]
    static let discussion = """
        Writes the places a reader can be guided to: every location lock whose point is in the clear (a \
        ,visible place, or any place of a format 1 message), as a GPX 1.1 waypoint or a GeoJSON (RFC 7946) \
        Point named by the organiser's name for it (a quest's waypoint name, or compose's ,visible=NAME), \
        else by the message's title and page; its description gives the message, the page and the radius \
        ("Alfama, page 2: within 30 m"; GeoJSON adds radius and open). Then the track chestd recorded. To FILE \
        or standard output, for QGIS, OsmAnd, gpsbabel or geojson.io. Sealed places are never exported: their \
        point is not in the file, and where a quest has it, it stays the organiser's secret. Given a QUEST, \
        writes the quest's own visible places instead, for its organiser, and says how many sealed ones it \
        left out; with --sealed, every place of the QUEST, sealed ones too, named by the quest's waypoint or the \
        page (a geocaching GPX course written back for a GPS or another tool, for the organiser alone: never give \
        it to the readers). The sealed places of messages are in no file, so --sealed takes only a QUEST. A \
        place is named as its source called it (the quest's waypoint: line: GC3A5N1, FN3A5N1, a Lab stage's name), \
        the names differing in their first 14 characters. With --geocaching the GPX is one a geocaching tool \
        (GSAK, c:geo, gpsbabel) imports as caches: GPX 1.0 with groundspeak:cache 1.0.1, each page a cache or an \
        additional waypoint of its type, its text the listing and its first hint the hint.
        """
    static let parameters: [Parameter] = [
        .flag("--gpx", help: "write GPX 1.1"),
        .flag("--geojson", help: "write GeoJSON (RFC 7946)"),
        // Asked for often enough to answer with the two that exist rather than "unknown option".
        .flag("--kml", help: "not written: GPX or GeoJSON", hidden: true),
        .option(
            "--output", "-o", value: "FILE", help: "the file to write (default: standard output)", completion: .files()),
        .flag("--sealed", help: "with a QUEST: its sealed places too, for the organiser alone"),
        .flag(
            "--geocaching",
            help:
                "with --gpx --sealed: a GPX of caches (groundspeak 1.0.1) a geocaching tool imports, page texts and hints in it"
        ),
        .positional("QUEST", arity: .optional, help: "a quest file: export its locations", completion: .files()),
    ]

    enum Format { case gpx, geojson }

    var format: Format
    var output: String?
    var quest: String?
    var includingSealed: Bool
    var geocaching: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        if values.flag("--kml") {
            throw UsageError(
                "export writes --gpx or --geojson, not KML; for KML: chest export --gpx -o FILE.gpx, then "
                    + "gpsbabel -i gpx -f FILE.gpx -o kml -F FILE.kml")
        }
        switch (values.flag("--gpx"), values.flag("--geojson")) {
        case (true, false): format = .gpx
        case (false, true): format = .geojson
        default: throw UsageError("export needs one of --gpx and --geojson")
        }
        output = values.value("--output")
        quest = values.positional("QUEST").first
        includingSealed = values.flag("--sealed")
        geocaching = values.flag("--geocaching")
        if geocaching && (format != .gpx || !includingSealed) {
            throw UsageError(
                "--geocaching writes a quest's pages with their texts, for the organiser alone: chest export --gpx --sealed --geocaching QUEST"
            )
        }
        if includingSealed && quest == nil {
            throw UsageError(
                "--sealed exports a quest's own places: chest export --gpx --sealed QUEST; a message's sealed places are in no file"
            )
        }
    }

    /// A named circle to export.
    struct Place {
        var name: String
        /// "The hill walk, page 2 (set B): within 30 m".
        var description: String
        var center: Coordinate
        var radius: Double
        var open: Bool?
        /// For `--geocaching`: the page it locks, its message's title and sender, and its waypoint's type.
        var page: QuestDraft.Page?
        var title = ""
        var from: String?
        var type: String?
    }

    func run(settings: Settings) throws {
        var places: [Place] = []
        var track: [TrackLog.Point] = []
        if let quest {
            var sealed = 0
            for draft in try Rehearsal(paths: [quest]).items.map(\.draft) {
                for (index, page) in draft.pages.enumerated() {
                    for (set, specs) in [(LockSetName.a, page.setA), (.b, page.setB)] {
                        for spec in specs where spec.kind == .location {
                            let place: (center: Coordinate, radius: Double, label: String?)
                            switch spec {
                            case let .visible(.lock(.location(center, radius)), label): place = (center, radius, label)
                            case let .lock(.location(center, radius)) where includingSealed:
                                place = (center, radius, nil)
                            default:
                                sealed += 1
                                continue
                            }
                            var exported = Place(
                                name: place.label ?? page.waypoint.map { $0.name + (set == .b ? " B" : "") }
                                    ?? Self.name(draft.title, page: index + 1, set: set),
                                description: Self.describe(
                                    draft.title, page: index + 1, set: set, radius: place.radius),
                                center: place.center, radius: place.radius)
                            (exported.page, exported.title, exported.from) = (page, draft.title, draft.from)
                            exported.type = page.waypoint?.type
                            places.append(exported)
                        }
                    }
                }
            }
            if sealed > 0 {
                printError(
                    "chest: \(sealed) sealed place\(sealed == 1 ? " is" : "s are") not exported: a sealed place stays secret (add ,visible to a lock to share its point; --sealed exports them for the organiser alone)"
                )
            }
        } else {
            let contents = try ChestContents(settings: settings)
            places = contents.targets.map {
                Place(
                    name: $0.name,
                    description: Self.describe($0.message.title, page: $0.page, set: $0.set, radius: $0.radius),
                    center: $0.center, radius: $0.radius, open: $0.open)
            }
            track = contents.track.points
        }
        let text =
            geocaching
            ? Self.geocachingGPX(places) : format == .gpx ? Self.gpx(places, track) : Self.geojson(places, track)
        try OutputFile(checking: output ?? "-").write(checked: Data(text.utf8))
    }

    static func name(_ message: String, page: Int, set: LockSetName) -> String {
        "\(message) p\(page)" + (set == .b ? " B" : "")
    }

    static func describe(_ message: String, page: Int, set: LockSetName, radius: Double) -> String {
        "\(message), page \(page)" + (set == .b ? " (set B)" : "") + ": within \(String(printf: "%g", radius)) m"
    }

    static func gpx(_ places: [Place], _ track: [TrackLog.Point]) -> String {
        GPX(
            waypoints: places.map {
                GPX.Waypoint(name: $0.name, coordinate: $0.center, description: $0.description)
            },
            track: track.map {
                GPX.TrackPoint(coordinate: $0.coordinate, elevation: $0.altitudeMSL, time: $0.time)
            }
        ).xml(creator: "chest \(ChestVersion.string)", trackName: track.isEmpty ? nil : "chest track")
    }

    static func geojson(_ places: [Place], _ track: [TrackLog.Point]) -> String {
        var features = places.map { place in
            GeoJSON.Feature(
                properties: .init(
                    name: place.name, description: place.description, radius: place.radius, open: place.open),
                geometry: .init(type: "Point", coordinates: .point([place.center.longitude, place.center.latitude])))
        }
        if track.count > 1 {
            features.append(
                GeoJSON.Feature(
                    properties: .init(name: "chest track", times: track.map { ISO8601.string($0.time) }),
                    geometry: .init(
                        type: "LineString",
                        coordinates: .line(
                            track.map {
                                [$0.coordinate.longitude, $0.coordinate.latitude]
                            }))))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try! encoder.encode(GeoJSON(features: features))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The GeoJSON `geojson` writes (RFC 7946): a feature collection of points and one line string. Optional
    /// properties are left out when nil, as the dictionaries JSONSerialization wrote did, and the keys are sorted, so
    /// the bytes are the same.
    struct GeoJSON: Encodable {
        var type = "FeatureCollection"
        var features: [Feature]

        struct Feature: Encodable {
            var type = "Feature"
            var properties: Properties
            var geometry: Geometry
        }

        struct Properties: Encodable {
            var name: String
            var description: String?
            var radius: Double?
            var open: Bool?
            var times: [String]?
        }

        struct Geometry: Encodable {
            var type: String
            var coordinates: Coordinates
        }

        /// A point's [longitude, latitude], or a line's list of them.
        enum Coordinates: Encodable {
            case point([Double])
            case line([[Double]])

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case let .point(position): try container.encode(position)
                case let .line(positions): try container.encode(positions)
                }
            }
        }
    }
}
