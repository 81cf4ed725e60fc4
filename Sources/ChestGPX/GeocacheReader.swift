import ChestCore
import FoundationEssentials

/// One pass of `XMLStreamReader` (libxml2's `xmlTextReader`) over a GPX: the `<wpt>` elements with the fields a quest uses.
final class GeocacheReader {
    var fileName: String?
    var waypoints: [GeocacheWaypoint] = []
    /// Entity references whose text was left out, each once, at its first line.
    var notes: [GeocacheCourse.Note] = []

    /// GPX's own namespaces (1.0 and 1.1); elements in any other are extensions.
    static let gpxNamespaces: Set<String> = [
        "http://www.topografix.com/GPX/1/0", "http://www.topografix.com/GPX/1/1", "",
    ]
    /// Extension elements a quest never uses, skipped with their whole subtree: most of a Pocket Query's bytes.
    static let skipped: Set<String> = ["logs", "travelbugs", "attributes", "images", "CacheImages", "LogImages", "log"]

    func read(_ data: Data) throws(GeocacheFile.ReadError) {
        guard !data.isEmpty else { throw GeocacheFile.ReadError(line: 1, reason: "the file is empty, not a GPX file") }
        let fault: GeocacheFile.ReadError?
        do {
            let xml = try XMLStreamReader(data: data)
            fault = try walk(xml)
            notes = Self.notes(xml.omittedEntities)
        } catch {
            throw GeocacheFile.ReadError(line: error.line, reason: error.reason)
        }
        if let fault { throw fault }
    }

    /// One note an entity left out and why, at its first line, with how many more lines lost it too.
    static func notes(_ omitted: [XMLStreamReader.OmittedEntity]) -> [GeocacheCourse.Note] {
        var order: [String] = []
        var found: [String: (first: XMLStreamReader.OmittedEntity, lines: Set<Int>)] = [:]
        for entity in omitted {
            let key = entity.name + "\u{0}" + entity.reason
            if found[key] == nil { order.append(key) }
            found[key, default: (entity, [])].lines.insert(entity.line)
        }
        return order.map { key in
            let (entity, lines) = found[key]!
            let more = lines.count > 1 ? " (and on \(lines.count - 1) more line\(lines.count == 2 ? "" : "s"))" : ""
            return GeocacheCourse.Note(
                line: entity.line, "the entity &\(entity.name); is left out of the text\(more): \(entity.reason)")
        }
    }

    /// The waypoint being read, the depth of its `<wpt>` (or `<rtept>`, `<trkpt>`) and whether it is a route's or a
    /// track's point.
    private var current: (waypoint: GeocacheWaypoint, depth: Int, onTheWay: Bool)?
    /// The named points of the file's routes, else of its tracks: a course when the file has no `<wpt>` (issue 58).
    private var routePoints: [GeocacheWaypoint] = []
    private var trackPoints: [GeocacheWaypoint] = []
    /// Route and track points without a name, which no course is made of.
    private(set) var unnamedPoints = 0

    /// Reads the document; returns the fault that is not libxml2's (a root that is not `<gpx>`).
    private func walk(_ xml: XMLStreamReader) throws(XMLReadError) -> GeocacheFile.ReadError? {
        var sawRoot = false
        while let event = try xml.next() {
            if event == .end {
                if let current, xml.depth == current.depth { finish() }
                continue
            }
            guard event == .start else { continue }
            let local = xml.localName
            let namespace = xml.namespace
            let depth = xml.depth
            if !sawRoot {
                guard local == "gpx" else {
                    return GeocacheFile.ReadError(
                        line: xml.line, reason: "not a GPX file: its root element is <\(local)>, not <gpx>")
                }
                sawRoot = true
            }
            if Self.skipped.contains(local) {
                xml.skipSubtree()
                continue
            }
            let gpx = Self.gpxNamespaces.contains(namespace)
            if local == "wpt" || local == "rtept" || local == "trkpt", gpx, current == nil {
                start(xml, depth: depth, onTheWay: local != "wpt", track: local == "trkpt")
            } else if current != nil {
                field(xml, local: local, namespace: namespace, gpx: gpx, depth: depth)
            } else if gpx, local == "name", depth <= 2, fileName == nil {
                fileName = xml.text()
            }
        }
        if !sawRoot { return GeocacheFile.ReadError(line: 1, reason: "not a GPX file: no <gpx> element") }
        // A route or track from an outdoor app: its named points are the course, when there is no waypoint.
        if waypoints.isEmpty { waypoints = routePoints.isEmpty ? trackPoints : routePoints }
        return nil
    }

    private func start(_ xml: XMLStreamReader, depth: Int, onTheWay: Bool = false, track: Bool = false) {
        isTrackPoint = track
        let latitude = xml.attribute("lat")
        let longitude = xml.attribute("lon")
        var waypoint = GeocacheWaypoint(code: "", line: xml.line, coordinate: nil)
        if let latitude, let longitude {
            if let lat = Double(latitude.trimmingSpaces()), let lon = Double(longitude.trimmingSpaces()),
                lat.isFinite, lon.isFinite
            {
                if !(-90...90).contains(lat) {
                    waypoint.coordinateProblem = "lat=\(latitude) is outside -90..90"
                } else if !(-180...180).contains(lon) {
                    waypoint.coordinateProblem = "lon=\(longitude) is outside -180..180"
                } else if lat == 0 && lon == 0 {
                    waypoint.coordinateProblem = "0,0, which tools write for a point they do not know"
                } else {
                    waypoint.coordinate = Coordinate(latitude: lat, longitude: lon)
                }
            } else {
                waypoint.coordinateProblem = "lat=\"\(latitude)\" lon=\"\(longitude)\" are not decimal degrees"
            }
        } else {
            waypoint.coordinateProblem = "no lat and lon"
        }
        current = (waypoint, depth, onTheWay)
    }

    /// The point being read is a track's.
    private var isTrackPoint = false

    /// One element inside a `<wpt>`: GPX's own fields as its children, the cache extension's at any depth.
    private func field(_ xml: XMLStreamReader, local: String, namespace: String, gpx: Bool, depth: Int) {
        guard let (found, wptDepth, onTheWay) = current else { return }
        var waypoint = found
        if gpx {
            switch (local, depth - wptDepth) {
            case ("name", 1): waypoint.code = Self.oneLine(xml) ?? ""
            case ("desc", 1): waypoint.description = xml.text()
            case ("cmt", 1): waypoint.comment = xml.text()
            case ("urlname", 1), ("text", 2): if waypoint.urlName == nil { waypoint.urlName = Self.oneLine(xml) }
            case ("type", 1): waypoint.type = Self.oneLine(xml)
            case ("sym", 1): waypoint.symbol = Self.oneLine(xml)
            default: break
            }
        } else {
            let htmlAttribute = xml.attribute("html")?.lowercased()
            let html = htmlAttribute == "true"
            let lowercased = local.lowercased()
            // The cache element itself (`groundspeak:cache`, `terra:terracache`): its id ties a cache's waypoints.
            if waypoint.cacheID == nil, lowercased.hasSuffix("cache"), let id = xml.attribute("id")?.trimmingSpaces(),
                !id.isEmpty
            {
                waypoint.cacheID = namespace + " " + id
            }
            /// A description as plain text: HTML where the file says so, or where it says nothing and the text
            /// is marked up (TerraCaching's `terra:description` has no `html` attribute).
            func description(_ text: String) -> String {
                html || (htmlAttribute == nil && HTMLText.looksLikeHTML(text)) ? HTMLText.plain(text) : text
            }
            switch lowercased {
            case "name" where waypoint.cacheName == nil: waypoint.cacheName = Self.oneLine(xml)
            case "owner": waypoint.owner = Self.oneLine(xml)
            case "placed_by":
                waypoint.placedBy = Self.oneLine(xml)
                if waypoint.owner == nil { waypoint.owner = waypoint.placedBy }
            // GSAK's own code of the waypoint (`GC3A5N1`), where its `<name>` is GSAK's shortened form.
            case "code" where namespace.contains("gsak"): waypoint.sourceCode = Self.oneLine(xml)
            case "type" where waypoint.cacheType == nil: waypoint.cacheType = Self.oneLine(xml)
            // TerraCaching's kind of cache (Traditional, Virtual, Multi…): its `<type>` says only "Classic Cache".
            case "style" where waypoint.cacheType == nil: waypoint.cacheType = Self.oneLine(xml)
            case "short_description": waypoint.shortDescription = xml.text().map(description)
            case "long_description", "description": waypoint.longDescription = xml.text().map(description)
            case "encoded_hints", "hints", "hint":
                // Plain text in spite of the name; ROT13 only where the file marks it encoded.
                let encoded = ["true", "1", "yes"].contains(xml.attribute("encoded")?.lowercased() ?? "")
                waypoint.hints = xml.text().map { html ? HTMLText.plain($0) : $0 }.map {
                    encoded ? GeocacheText.rot13($0) : $0
                }
            default: break
            }
        }
        current = (waypoint, wptDepth, onTheWay)
    }

    private func finish() {
        guard var current else { return }
        if let code = current.waypoint.sourceCode { current.waypoint.code = code }
        if !current.onTheWay {
            waypoints.append(current.waypoint)
        } else if current.waypoint.code.isEmpty {
            unnamedPoints += 1
        } else if isTrackPoint {
            trackPoints.append(current.waypoint)
        } else {
            routePoints.append(current.waypoint)
        }
        self.current = nil
    }

    static func oneLine(_ xml: XMLStreamReader) -> String? {
        xml.text().map(GeocacheText.oneLine).flatMap { $0.isEmpty ? nil : $0 }
    }
}
