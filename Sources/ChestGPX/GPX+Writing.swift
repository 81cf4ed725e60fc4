import ChestCore
import FoundationEssentials

extension GPX {
    /// The document as GPX 1.1 (docs/gpx-1.1-subset.xsd is the part of the schema it uses): the waypoints, then the track as one
    /// segment.
    package func xml(creator: String = "chest", trackName: String? = nil) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.1" creator="\#(Self.escape(creator))" xmlns="http://www.topografix.com/GPX/1/1">"#,
        ]
        for waypoint in waypoints {
            lines.append("  <wpt \(Self.attributes(waypoint.coordinate))>")
            if let elevation = waypoint.elevation { lines.append("    <ele>\(Self.number(elevation))</ele>") }
            lines.append("    <name>\(Self.escape(waypoint.name))</name>")
            if let description = waypoint.description { lines.append("    <desc>\(Self.escape(description))</desc>") }
            lines.append("  </wpt>")
        }
        if !track.isEmpty {
            lines.append("  <trk>")
            if let trackName { lines.append("    <name>\(Self.escape(trackName))</name>") }
            lines.append("    <trkseg>")
            for point in track {
                var children = ""
                if let elevation = point.elevation { children += "<ele>\(Self.number(elevation))</ele>" }
                if let time = point.time { children += "<time>\(ISO8601.string(time))</time>" }
                lines.append("      <trkpt \(Self.attributes(point.coordinate))>\(children)</trkpt>")
            }
            lines.append("    </trkseg>")
            lines.append("  </trk>")
        }
        lines.append("</gpx>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func attributes(_ coordinate: Coordinate) -> String {
        #"lat="\#(String(printf: "%.7f", coordinate.latitude))" lon="\#(String(printf: "%.7f", coordinate.longitude))""#
    }

    private static func number(_ value: Double) -> String { String(printf: "%.1f", value) }

    package static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
