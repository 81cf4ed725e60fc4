import ChestCore

import struct FoundationEssentials.Date

extension NMEAWalk {
    /// The text format `init(description:)` reads, as `chest-walk --help` prints it.
    package static let descriptionFormat = """
        A walk description is plain text, one item per line; `#` starts a comment.

          start ISO8601|now                   time of the first epoch (default 2026-06-01T09:00:00Z; now: when \
        the description is read, for a live feed)
          speed METRES_PER_SECOND             walking speed between waypoints (default 1.4)
          LAT LON ALT [hold SECONDS] [nofix]  a waypoint: decimal degrees (south and west negative) and metres \
        above mean sea level. The walk goes from waypoint to waypoint in a straight line at the walking speed, one \
        epoch per second, then stands at the waypoint for `hold` seconds. `nofix` means the receiver has no fix on \
        the way to this waypoint and during its hold (RMC status V, GGA quality 0).

        Example:
          start 2026-06-01T09:00:00Z
          speed 1.4
          47.37690 8.54170 410 hold 5
          47.37780 8.54300 470
        """

    /// A description line that could not be read.
    package typealias DescriptionError = LineError

    /// Reads a walk in `descriptionFormat`; `start now` means `now`.
    package init(description: String, now: Date = Date()) throws(DescriptionError) {
        var start = Date(timeIntervalSince1970: 1_780_304_400)  // 2026-06-01T09:00:00Z
        var speed = 1.4
        var waypoints: [Waypoint] = []
        for (index, raw) in description.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let words = raw.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let keyword = words.first else { continue }
            switch keyword {
            case "start":
                guard words.count == 2, let date = words[1] == "now" ? now : ISO8601.parse(String(words[1])) else {
                    throw DescriptionError(
                        line: line,
                        reason: "expected `start ISO8601` with a zone, e.g. 2026-06-01T09:00:00Z, or `start now`")
                }
                start = date
            case "speed":
                guard words.count == 2, let value = Double(words[1]), value > 0, value.isFinite else {
                    throw DescriptionError(line: line, reason: "expected `speed METRES_PER_SECOND` above 0")
                }
                speed = value
            default:
                waypoints.append(try Self.waypoint(words, line: line))
            }
        }
        // The same walk read twice with `start now` is the same walk: whole seconds, as a receiver reports them.
        start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
        guard !waypoints.isEmpty else { throw DescriptionError(line: 0, reason: "no waypoints") }
        self.init(waypoints: waypoints, start: start, speed: speed)
    }

    private static func waypoint(_ words: [Substring], line: Int) throws(DescriptionError) -> Waypoint {
        guard words.count >= 3, let latitude = Double(words[0]), let longitude = Double(words[1]),
            let altitude = Double(words[2]), altitude.isFinite
        else { throw DescriptionError(line: line, reason: "expected `LAT LON ALT [hold SECONDS] [nofix]`") }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            throw DescriptionError(line: line, reason: "latitude must be within ±90 and longitude within ±180")
        }
        var waypoint = Waypoint(coordinate, altitudeMSL: altitude)
        var rest = words.dropFirst(3)
        while let word = rest.popFirst() {
            switch word {
            case "nofix":
                waypoint.noFix = true
            case "hold":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value >= 0 else {
                    throw DescriptionError(line: line, reason: "expected `hold SECONDS` (a whole number)")
                }
                waypoint.hold = value
            default:
                throw DescriptionError(line: line, reason: "unknown word `\(word)`")
            }
        }
        return waypoint
    }
}
