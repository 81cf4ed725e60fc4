import ChestCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPX 1.0 or 1.1 file as chest uses it: its named waypoints (quest locations) and its track points (a recorded
/// walk for `chest simulate`), read with FoundationXML.
public struct GPX: Hashable, Sendable {
    /// A `<wpt>`: a named point.
    public struct Waypoint: Hashable, Sendable {
        public var name: String
        public var coordinate: Coordinate
        public var elevation: Double?
        /// The line of its `<wpt>` tag.
        public var line: Int
        /// Its `<desc>`, written by `chest export` (not read).
        public var description: String?

        public init(name: String, coordinate: Coordinate, elevation: Double? = nil, line: Int = 0, description: String? = nil) {
            self.description = description
            self.name = name
            self.coordinate = coordinate
            self.elevation = elevation
            self.line = line
        }
    }

    /// A `<trkpt>` (or `<rtept>`): a point of a recorded walk.
    public struct TrackPoint: Hashable, Sendable {
        public var coordinate: Coordinate
        public var elevation: Double?
        public var time: Date?

        public init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil) {
            self.coordinate = coordinate
            self.elevation = elevation
            self.time = time
        }
    }

    /// A GPX file that cannot be read, with the line of the fault.
    public typealias ParseError = LineError

    public var waypoints: [Waypoint]
    public var track: [TrackPoint]

    public init(waypoints: [Waypoint] = [], track: [TrackPoint] = []) {
        self.waypoints = waypoints
        self.track = track
    }

    /// Reads a GPX document.
    public init(data: Data) throws(ParseError) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            throw ParseError(line: parser.lineNumber, reason: "not well-formed XML (XMLParser error \((parser.parserError as NSError?)?.code ?? 0))")
        }
        guard reader.sawRoot else { throw ParseError(line: 1, reason: "not a GPX file (no <gpx> element)") }
        self.init(waypoints: reader.waypoints, track: reader.track)
    }

    /// The waypoint with this name (exactly, else ignoring case).
    public func waypoint(named name: String) -> Waypoint? {
        waypoints.first { $0.name == name } ?? waypoints.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// The XMLParser delegate: collects points and the first fault with its line.
private final class Reader: NSObject, XMLParserDelegate {
    var waypoints: [GPX.Waypoint] = []
    var track: [GPX.TrackPoint] = []
    var failure: GPX.ParseError?
    var sawRoot = false
    private var point: (kind: String, coordinate: Coordinate, line: Int)?
    private var name: String?
    private var elevation: Double?
    private var time: Date?
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        let local = element.split(separator: ":").last.map(String.init) ?? element
        if local == "gpx" { sawRoot = true }
        guard ["wpt", "trkpt", "rtept"].contains(local) else { return }
        guard let latitude = attributes["lat"].flatMap(Double.init), let longitude = attributes["lon"].flatMap(Double.init),
              Coordinate(latitude: latitude, longitude: longitude).isValid else {
            fail(parser, "<\(local)> needs lat (-90..90) and lon (-180..180) in decimal degrees")
            return
        }
        point = (local, Coordinate(latitude: latitude, longitude: longitude), parser.lineNumber)
        name = nil
        elevation = nil
        time = nil
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        let local = element.split(separator: ":").last.map(String.init) ?? element
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        guard let current = point else { return }
        switch local {
        case "name": name = value
        case "ele":
            guard let number = Double(value), number.isFinite else { return fail(parser, "<ele>\(value)</ele> is not a number") }
            elevation = number
        case "time":
            guard let date = ISO8601.parse(value) else { return fail(parser, "<time>\(value)</time> is not an ISO 8601 time") }
            time = date
        case current.kind:
            if current.kind == "wpt" {
                waypoints.append(GPX.Waypoint(name: name ?? "", coordinate: current.coordinate, elevation: elevation,
                                              line: current.line))
            } else {
                track.append(GPX.TrackPoint(coordinate: current.coordinate, elevation: elevation, time: time))
            }
            point = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
        if failure == nil {
            failure = GPX.ParseError(line: parser.lineNumber, reason: "not well-formed XML (XMLParser error \((error as NSError).code))")
        }
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        if failure == nil { failure = GPX.ParseError(line: parser.lineNumber, reason: reason) }
        parser.abortParsing()
    }
}
