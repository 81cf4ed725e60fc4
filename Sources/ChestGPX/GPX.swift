import ChestCore
import FoundationEssentials

/// A GPX 1.0 or 1.1 file as chest uses it: its named waypoints (quest locations) and its track points (a recorded
/// walk for `chest simulate`), read with `XMLStreamReader` (libxml2).
package struct GPX: Hashable, Sendable {
    /// A `<wpt>`: a named point.
    package struct Waypoint: Hashable, Sendable {
        package var name: String
        package var coordinate: Coordinate
        package var elevation: Double?
        /// The line of its `<wpt>` tag.
        package var line: Int
        /// Its `<desc>`, written by `chest export` (not read).
        package var description: String?

        package init(
            name: String, coordinate: Coordinate, elevation: Double? = nil, line: Int = 0, description: String? = nil
        ) {
            self.description = description
            self.name = name
            self.coordinate = coordinate
            self.elevation = elevation
            self.line = line
        }
    }

    /// A `<trkpt>` (or `<rtept>`): a point of a recorded walk.
    package struct TrackPoint: Hashable, Sendable {
        package var coordinate: Coordinate
        package var elevation: Double?
        package var time: Date?

        package init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil) {
            self.coordinate = coordinate
            self.elevation = elevation
            self.time = time
        }
    }

    /// A GPX file that cannot be read, with the line of the fault.
    package typealias ParseError = LineError

    package var waypoints: [Waypoint]
    package var track: [TrackPoint]

    package init(waypoints: [Waypoint] = [], track: [TrackPoint] = []) {
        self.waypoints = waypoints
        self.track = track
    }

    /// Reads a GPX document.
    package init(data: Data) throws(ParseError) {
        guard data.contains(where: { !Self.whitespace.contains($0) }) else {
            throw ParseError(line: 1, reason: "not a GPX file (no <gpx> element)")
        }
        var reader = Reader()
        do {
            try reader.read(XMLStreamReader(data: data))
        } catch {
            throw ParseError(line: error.line, reason: error.reason)
        }
        if let fault = reader.fault { throw fault }
        guard reader.sawRoot else { throw ParseError(line: 1, reason: "not a GPX file (no <gpx> element)") }
        self.init(waypoints: reader.waypoints, track: reader.track)
    }

    /// XML's whitespace: a file of nothing else is a document without `<gpx>`, not a fault of its XML.
    private static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// The waypoint with this name (exactly, else ignoring case).
    package func waypoint(named name: String) -> Waypoint? {
        waypoints.first { $0.name == name } ?? waypoints.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// One pass over the document: collects points and stops at the first fault, with its line.
private struct Reader {
    var waypoints: [GPX.Waypoint] = []
    var track: [GPX.TrackPoint] = []
    /// A fault of the GPX in well-formed XML (libxml2's own are thrown by `read`).
    var fault: GPX.ParseError?
    var sawRoot = false
    private var point: (kind: String, coordinate: Coordinate, line: Int)?
    private var name: String?
    private var elevation: Double?
    private var time: Date?
    /// The text since the last start or end tag.
    private var text = ""

    mutating func read(_ xml: XMLStreamReader) throws(XMLReadError) {
        while fault == nil, let event = try xml.next() {
            switch event {
            case .start: start(xml)
            case .text: text += xml.value
            case .end: end(xml)
            }
        }
        // A fault found before libxml2 stopped at a fault of its own that comes earlier in the file.
        if let fault, let error = xml.firstError, error.line <= fault.line { throw error }
    }

    private mutating func start(_ xml: XMLStreamReader) {
        text = ""
        let local = xml.localName
        if local == "gpx" { sawRoot = true }
        guard ["wpt", "trkpt", "rtept"].contains(local) else { return }
        guard let latitude = xml.attribute("lat").flatMap(Double.init),
            let longitude = xml.attribute("lon").flatMap(Double.init),
            Coordinate(latitude: latitude, longitude: longitude).isValid
        else {
            return fail(at: xml.line, "<\(local)> needs lat (-90..90) and lon (-180..180) in decimal degrees")
        }
        point = (local, Coordinate(latitude: latitude, longitude: longitude), xml.line)
        name = nil
        elevation = nil
        time = nil
    }

    private mutating func end(_ xml: XMLStreamReader) {
        let local = xml.localName
        let value = text.trimmed()
        // The line of the end tag: the start tag's, past the lines of the text (for a leaf such as <ele>).
        let line = xml.line + text.count(where: \.isNewline)
        text = ""
        guard let current = point else { return }
        switch local {
        case "name": name = value
        case "ele":
            guard let number = Double(value), number.isFinite else {
                return fail(at: line, "<ele>\(value)</ele> is not a number")
            }
            elevation = number
        case "time":
            guard let date = ISO8601.parse(value) else {
                return fail(at: line, "<time>\(value)</time> is not an ISO 8601 time")
            }
            time = date
        case current.kind:
            if current.kind == "wpt" {
                waypoints.append(
                    GPX.Waypoint(
                        name: name ?? "", coordinate: current.coordinate, elevation: elevation,
                        line: current.line))
            } else {
                track.append(GPX.TrackPoint(coordinate: current.coordinate, elevation: elevation, time: time))
            }
            point = nil
        default: break
        }
    }

    private mutating func fail(at line: Int, _ reason: String) {
        if fault == nil { fault = GPX.ParseError(line: line, reason: reason) }
    }
}
