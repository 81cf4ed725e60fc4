import CLibXML2
import ChestCore
import Foundation

/// One pass of libxml2's `xmlTextReader` over a GPX: the `<wpt>` elements with the fields a quest uses.
final class GeocacheReader {
    var fileName: String?
    var waypoints: [GeocacheWaypoint] = []
    /// The first error libxml2 reported, with its line.
    fileprivate var failure: GeocacheFile.ReadError?

    /// GPX's own namespaces (1.0 and 1.1); elements in any other are extensions.
    static let gpxNamespaces: Set<String> = ["http://www.topografix.com/GPX/1/0", "http://www.topografix.com/GPX/1/1", ""]
    /// Extension elements a quest never uses, skipped with their whole subtree: most of a Pocket Query's bytes.
    static let skipped: Set<String> = ["logs", "travelbugs", "attributes", "images", "CacheImages", "LogImages", "log"]

    func read(_ data: Data) throws(GeocacheFile.ReadError) {
        xmlInitParser()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
            | XML_PARSE_COMPACT.rawValue)
        let failure: GeocacheFile.ReadError? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count > 0 else {
                return GeocacheFile.ReadError(line: 1, reason: "the file is empty, not a GPX file")
            }
            guard let reader = xmlReaderForMemory(base, Int32(clamping: raw.count), nil, nil, options) else {
                return GeocacheFile.ReadError(line: 1, reason: "libxml2 could not start reading it")
            }
            defer { xmlFreeTextReader(reader) }
            let context = Unmanaged.passUnretained(self).toOpaque()
            xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
                guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                let reader = Unmanaged<GeocacheReader>.fromOpaque(context).takeUnretainedValue()
                guard reader.failure == nil else { return }
                let message = error.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown error"
                reader.failure = GeocacheFile.ReadError(line: Int(error.pointee.line), reason: "not well-formed XML (libxml2: \(message))")
            }, context)
            return walk(reader)
        }
        if let failure { throw failure }
    }

    /// The waypoint being read, and the depth of its `<wpt>`.
    private var current: (waypoint: GeocacheWaypoint, depth: Int32)?

    private func walk(_ reader: xmlTextReaderPtr) -> GeocacheFile.ReadError? {
        var sawRoot = false
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            let type = xmlTextReaderNodeType(reader)
            let depth = xmlTextReaderDepth(reader)
            if type == Int32(XML_READER_TYPE_END_ELEMENT.rawValue) {
                if let current, depth == current.depth { finish() }
                status = xmlTextReaderRead(reader)
                continue
            }
            guard type == Int32(XML_READER_TYPE_ELEMENT.rawValue) else {
                status = xmlTextReaderRead(reader)
                continue
            }
            let local = Self.string(xmlTextReaderConstLocalName(reader)) ?? ""
            let namespace = Self.string(xmlTextReaderConstNamespaceUri(reader)) ?? ""
            if !sawRoot {
                guard local == "gpx" else {
                    return GeocacheFile.ReadError(line: line(reader), reason: "not a GPX file: its root element is <\(local)>, not <gpx>")
                }
                sawRoot = true
            }
            if Self.skipped.contains(local) {
                status = xmlTextReaderNext(reader)
                continue
            }
            let gpx = Self.gpxNamespaces.contains(namespace)
            if local == "wpt", gpx, current == nil {
                start(reader, depth: depth)
                if xmlTextReaderIsEmptyElement(reader) == 1 { finish() }
            } else if current != nil {
                field(reader, local: local, gpx: gpx, depth: depth)
            } else if gpx, local == "name", depth <= 2, fileName == nil {
                fileName = Self.text(reader)
            }
            status = xmlTextReaderRead(reader)
        }
        if let failure { return failure }
        if status == -1 { return GeocacheFile.ReadError(line: 1, reason: "not well-formed XML") }
        if !sawRoot { return GeocacheFile.ReadError(line: 1, reason: "not a GPX file: no <gpx> element") }
        return nil
    }

    private func start(_ reader: xmlTextReaderPtr, depth: Int32) {
        let latitude = Self.attribute(reader, "lat"), longitude = Self.attribute(reader, "lon")
        var waypoint = GeocacheWaypoint(code: "", line: line(reader), coordinate: nil)
        if let latitude, let longitude {
            if let lat = Double(latitude.trimmingCharacters(in: .whitespaces)), let lon = Double(longitude.trimmingCharacters(in: .whitespaces)),
               lat.isFinite, lon.isFinite {
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
        current = (waypoint, depth)
    }

    /// One element inside a `<wpt>`: GPX's own fields as its children, the cache extension's at any depth.
    private func field(_ reader: xmlTextReaderPtr, local: String, gpx: Bool, depth: Int32) {
        guard let (found, wptDepth) = current else { return }
        var waypoint = found
        if gpx {
            switch (local, depth - wptDepth) {
            case ("name", 1): waypoint.code = Self.oneLine(reader) ?? ""
            case ("desc", 1): waypoint.description = Self.text(reader)
            case ("cmt", 1): waypoint.comment = Self.text(reader)
            case ("urlname", 1), ("text", 2): if waypoint.urlName == nil { waypoint.urlName = Self.oneLine(reader) }
            case ("type", 1): waypoint.type = Self.oneLine(reader)
            case ("sym", 1): waypoint.symbol = Self.oneLine(reader)
            default: break
            }
        } else {
            let html = Self.attribute(reader, "html")?.lowercased() == "true"
            switch local.lowercased() {
            case "name" where waypoint.cacheName == nil: waypoint.cacheName = Self.oneLine(reader)
            case "owner": waypoint.owner = Self.oneLine(reader)
            case "placed_by" where waypoint.owner == nil: waypoint.owner = Self.oneLine(reader)
            case "type" where waypoint.cacheType == nil: waypoint.cacheType = Self.oneLine(reader)
            case "short_description": waypoint.shortDescription = Self.text(reader).map { html ? HTMLText.plain($0) : $0 }
            case "long_description", "description":
                waypoint.longDescription = Self.text(reader).map { html ? HTMLText.plain($0) : $0 }
            case "encoded_hints", "hints", "hint":
                // Plain text in spite of the name; ROT13 only where the file marks it encoded.
                let encoded = ["true", "1", "yes"].contains(Self.attribute(reader, "encoded")?.lowercased() ?? "")
                waypoint.hints = Self.text(reader).map { html ? HTMLText.plain($0) : $0 }.map { encoded ? GeocacheText.rot13($0) : $0 }
            default: break
            }
        }
        current = (waypoint, wptDepth)
    }

    private func finish() {
        guard let current else { return }
        waypoints.append(current.waypoint)
        self.current = nil
    }

    private func line(_ reader: xmlTextReaderPtr) -> Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return Int(xmlTextReaderGetParserLineNumber(reader)) }
        return Int(xmlGetLineNo(node))
    }

    static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    static func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { chest_xmlFree(value) }
        return String(cString: value)
    }

    /// The element's text (CDATA and entities resolved), `nil` when it holds only whitespace.
    static func text(_ reader: xmlTextReaderPtr) -> String? {
        guard xmlTextReaderIsEmptyElement(reader) == 0, let value = xmlTextReaderReadString(reader) else { return nil }
        defer { chest_xmlFree(value) }
        let text = String(cString: value)
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    static func oneLine(_ reader: xmlTextReaderPtr) -> String? {
        text(reader).map(GeocacheText.oneLine).flatMap { $0.isEmpty ? nil : $0 }
    }
}
