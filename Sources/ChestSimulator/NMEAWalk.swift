import ChestCore

import struct FoundationEssentials.Date

/// A walk through waypoints as a 1 Hz GPS receiver would report it: one epoch per second, each written as
/// NMEA 0183 sentences (GPRMC, GPGGA, GPGSA, GPGSV) that gpsd reads like a real receiver's.
package struct NMEAWalk: Hashable, Sendable {
    /// A point of the walk.
    package struct Waypoint: Hashable, Sendable {
        package var coordinate: Coordinate
        /// Altitude above mean sea level, in metres.
        package var altitudeMSL: Double
        /// The receiver has no fix on the way to this point and while holding at it (under trees, in a tunnel).
        package var noFix: Bool
        /// Seconds spent standing at this point after reaching it.
        package var hold: Int

        package init(_ coordinate: Coordinate, altitudeMSL: Double, noFix: Bool = false, hold: Int = 0) {
            self.coordinate = coordinate
            self.altitudeMSL = altitudeMSL
            self.noFix = noFix
            self.hold = max(0, hold)
        }
    }

    /// What the receiver reports in one second.
    package struct Epoch: Hashable, Sendable {
        package var time: Date
        /// Where the walker really is, whether or not the receiver has a fix.
        package var coordinate: Coordinate
        package var altitudeMSL: Double
        package var hasFix: Bool
        /// Ground speed, in metres per second.
        package var speed: Double
        /// Course over ground, in degrees clockwise from true north.
        package var course: Double

        package init(
            time: Date, coordinate: Coordinate, altitudeMSL: Double, hasFix: Bool = true, speed: Double = 0,
            course: Double = 0
        ) {
            self.time = time
            self.coordinate = coordinate
            self.altitudeMSL = altitudeMSL
            self.hasFix = hasFix
            self.speed = speed
            self.course = course
        }
    }

    package var waypoints: [Waypoint]
    /// The time of the first epoch.
    package var start: Date
    /// Walking speed between waypoints, in metres per second.
    package var speed: Double

    /// Geoid separation written into GGA; about right for central Europe (EGM2008 at Zurich is 47–48 m).
    package static let geoidSeparation = 47.4
    /// The satellites in view, as (PRN, elevation, azimuth, SNR); all but the last are used in a fix.
    static let satellites: [(prn: Int, elevation: Int, azimuth: Int, snr: Int)] = [
        (2, 62, 45, 44), (5, 48, 290, 42), (9, 35, 130, 40), (12, 71, 200, 45),
        (15, 22, 80, 36), (18, 40, 250, 41), (21, 15, 330, 33), (25, 8, 170, 28),
    ]
    /// How many satellites a fix uses.
    package static var satellitesUsedInFix: Int { satellites.count - 1 }

    package init(waypoints: [Waypoint], start: Date, speed: Double = 1.4) {
        self.waypoints = waypoints
        self.start = start
        self.speed = speed > 0 ? speed : 1.4
    }

    /// Every epoch of the walk, one per second, from the first waypoint to the end of the last one's hold.
    package func epochs() -> [Epoch] {
        guard let first = waypoints.first else { return [] }
        var result: [Epoch] = []
        var course = 0.0
        func append(_ coordinate: Coordinate, _ altitude: Double, fix: Bool, speed: Double) {
            result.append(
                Epoch(
                    time: start.addingTimeInterval(Double(result.count)), coordinate: coordinate,
                    altitudeMSL: altitude, hasFix: fix, speed: speed, course: course))
        }
        append(first.coordinate, first.altitudeMSL, fix: !first.noFix, speed: 0)
        for _ in 0..<first.hold { append(first.coordinate, first.altitudeMSL, fix: !first.noFix, speed: 0) }
        for (from, to) in zip(waypoints, waypoints.dropFirst()) {
            let distance = from.coordinate.distance(to: to.coordinate)
            let steps = max(1, Int((distance / speed).rounded(.up)))
            if distance > 0 { course = from.coordinate.bearing(to: to.coordinate) }
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                let point = Coordinate(
                    latitude: from.coordinate.latitude + (to.coordinate.latitude - from.coordinate.latitude) * t,
                    longitude: from.coordinate.longitude + (to.coordinate.longitude - from.coordinate.longitude) * t)
                append(
                    point, from.altitudeMSL + (to.altitudeMSL - from.altitudeMSL) * t, fix: !to.noFix,
                    speed: distance / Double(steps))
            }
            for _ in 0..<to.hold { append(to.coordinate, to.altitudeMSL, fix: !to.noFix, speed: 0) }
        }
        return result
    }

    /// The sentences a receiver sends for `epoch`, in its order: RMC, GGA, GSA, then the GSV group.
    package static func sentences(for epoch: Epoch) -> [String] {
        let clock = UTCClock(epoch.time)
        let time = clock.hhmmss
        let date = clock.ddmmyy
        let (lat, ns) = NMEA.latitude(epoch.coordinate.latitude)
        let (lon, ew) = NMEA.longitude(epoch.coordinate.longitude)
        let used = satellites.dropLast().map { NMEA.padded($0.prn, width: 2) }
        var lines: [String] = []
        if epoch.hasFix {
            let knots = NMEA.fixed(epoch.speed * 3600 / 1852, places: 2)
            let course = NMEA.fixed(epoch.course, places: 1)
            lines.append("GPRMC,\(time),A,\(lat),\(ns),\(lon),\(ew),\(knots),\(course),\(date),,,A")
            lines.append(
                "GPGGA,\(time),\(lat),\(ns),\(lon),\(ew),1,\(NMEA.padded(used.count, width: 2)),0.9,"
                    + "\(NMEA.fixed(epoch.altitudeMSL, places: 1)),M,\(NMEA.fixed(geoidSeparation, places: 1)),M,,")
            let prns = (used + Array(repeating: "", count: 12 - used.count)).joined(separator: ",")
            lines.append("GPGSA,A,3,\(prns),1.6,0.9,1.3")
        } else {
            lines.append("GPRMC,\(time),V,,,,,,,\(date),,,N")
            lines.append("GPGGA,\(time),,,,,0,00,99.99,,,,,,")
            lines.append("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99")
        }
        let groups = stride(from: 0, to: satellites.count, by: 4).map {
            Array(satellites[$0..<min($0 + 4, satellites.count)])
        }
        for (index, group) in groups.enumerated() {
            let fields = group.map { satellite in
                // Real signal strengths flicker by a dB or so every second; a frozen sky is a sign of simulation.
                let flicker = (Int(epoch.time.timeIntervalSince1970) &* 7 &+ satellite.prn &* 3) % 3 - 1
                let snr = epoch.hasFix ? NMEA.padded(satellite.snr + flicker, width: 2) : ""
                return "\(NMEA.padded(satellite.prn, width: 2)),\(NMEA.padded(satellite.elevation, width: 2)),"
                    + "\(NMEA.padded(satellite.azimuth, width: 3)),\(snr)"
            }
            lines.append(
                "GPGSV,\(groups.count),\(index + 1),\(NMEA.padded(satellites.count, width: 2)),"
                    + fields.joined(separator: ","))
        }
        return lines.map(NMEA.sentence)
    }

    /// The whole walk as an NMEA log gpsfake can replay: a `#` comment header, then CR LF terminated sentences.
    package func log(comment: String? = nil) -> String {
        var text = ""
        if let comment {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) { text += "# \(line)\r\n" }
        }
        for epoch in epochs() {
            for sentence in NMEAWalk.sentences(for: epoch) { text += sentence + "\r\n" }
        }
        return text
    }
}

/// The UTC calendar fields of an instant, computed without Foundation's calendars so the core stays pure.
struct UTCClock {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, hundredths: Int

    init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let seconds = Int64(interval.rounded(.down))
        hundredths = min(99, Int(((interval - Double(seconds)) * 100).rounded(.down)))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        hour = Int(rest / 3600)
        minute = Int(rest % 3600 / 60)
        second = Int(rest % 60)
        (year, month, day) = RFC3339.civilFromDays(Int(days))
    }

    var hhmmss: String {
        NMEA.padded(hour, width: 2) + NMEA.padded(minute, width: 2) + NMEA.padded(second, width: 2) + "."
            + NMEA.padded(hundredths, width: 2)
    }

    var ddmmyy: String {
        NMEA.padded(day, width: 2) + NMEA.padded(month, width: 2) + NMEA.padded(year % 100, width: 2)
    }
}
