import ChestCore
import ChestGPX
import FoundationEssentials

/// A recorded walk, one point a receiver epoch, from a GPX track, an NMEA log or a chest-walk description
/// (`chest simulate`, docs/QUEST.md "Rehearsal").
package struct Track: Hashable, Sendable {
    package struct Point: Hashable, Sendable {
        package var time: Date
        /// `nil` while the receiver has no fix.
        package var coordinate: Coordinate?
        /// Metres above mean sea level, when known.
        package var altitudeMSL: Double?

        package init(time: Date, coordinate: Coordinate?, altitudeMSL: Double? = nil) {
            self.time = time
            self.coordinate = coordinate
            self.altitudeMSL = altitudeMSL
        }
    }

    /// A track that cannot be read.
    package struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String

        package init(_ description: String) { self.description = description }
    }

    package var points: [Point]

    package init(points: [Point]) { self.points = points }

    /// Track points without a time are taken one second apart from this instant (the walk's default start).
    static let defaultStart = Date(timeIntervalSince1970: 1_780_304_400)

    /// Reads the track in whichever of the three forms `data` is: GPX (`<gpx`), NMEA (`$` sentences), or a
    /// walk description. Faults name the line.
    package init(data: Data) throws(ReadError) {
        let text = String(decoding: data, as: UTF8.self)
        let start = text.drop { $0.isWhitespace }
        if start.hasPrefix("<") {
            let gpx: GPX
            do { gpx = try GPX(data: data) } catch { throw ReadError("line \(error.line): \(error.reason)") }
            points = gpx.track.enumerated().map { index, point in
                Point(
                    time: point.time ?? Self.defaultStart.addingTimeInterval(Double(index)),
                    coordinate: point.coordinate,
                    altitudeMSL: point.elevation)
            }
        } else if text.split(whereSeparator: \.isNewline).contains(where: { $0.hasPrefix("$") }) {
            points = try Self.nmea(text)
        } else {
            do {
                points = try NMEAWalk(description: text).epochs().map {
                    Point(
                        time: $0.time, coordinate: $0.hasFix ? $0.coordinate : nil,
                        altitudeMSL: $0.hasFix ? $0.altitudeMSL : nil)
                }
            } catch {
                throw ReadError("not GPX or NMEA, and not a walk description: \(error)")
            }
        }
        guard !points.isEmpty else { throw ReadError("the track has no points") }
    }

    /// One point per RMC sentence (its time, status and position), with the altitude of the GGA of the same time.
    static func nmea(_ text: String) throws(ReadError) -> [Point] {
        var epochs: [(key: String, point: Point)] = []
        var altitudes: [String: Double] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmed()
            guard line.hasPrefix("$"), NMEA.isValid(line), let star = line.lastIndex(of: "*") else { continue }
            let fields = line[line.index(after: line.startIndex)..<star].split(
                separator: ",", omittingEmptySubsequences: false
            )
            .map(String.init)
            guard let type = fields.first, type.count == 5 else { continue }
            if type.hasSuffix("GGA"), fields.count > 9, fields[6] != "0", let altitude = Double(fields[9]) {
                altitudes[fields[1]] = altitude
            } else if type.hasSuffix("RMC"), fields.count > 9 {
                guard let time = time(fields[1], date: fields[9]) else {
                    throw ReadError("line \(index + 1): an RMC sentence without a time and date")
                }
                guard epochs.last?.key != fields[1] else { continue }
                var coordinate: Coordinate?
                if fields[2] == "A", let latitude = degrees(fields[3], fields[4]),
                    let longitude = degrees(fields[5], fields[6])
                {
                    coordinate = Coordinate(latitude: latitude, longitude: longitude)
                }
                epochs.append((fields[1], Point(time: time, coordinate: coordinate)))
            }
        }
        return epochs.map { epoch in
            var point = epoch.point
            if point.coordinate != nil { point.altitudeMSL = altitudes[epoch.key] }
            return point
        }
    }

    private static func time(_ hhmmss: String, date ddmmyy: String) -> Date? {
        guard hhmmss.count >= 6, ddmmyy.count == 6, let h = Int(hhmmss.prefix(2)),
            let m = Int(hhmmss.dropFirst(2).prefix(2)),
            let s = Double(hhmmss.dropFirst(4)), let d = Int(ddmmyy.prefix(2)),
            let mo = Int(ddmmyy.dropFirst(2).prefix(2)),
            let y = Int(ddmmyy.suffix(2))
        else { return nil }
        let text = String(printf: "%04d-%02d-%02dT%02d:%02d:%02dZ", 2000 + y, mo, d, h, m, Int(s))
        return ISO8601.parse(text)?.addingTimeInterval(s - s.rounded(.down))
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) and a hemisphere.
    private static func degrees(_ value: String, _ hemisphere: String) -> Double? {
        guard let number = Double(value), number >= 0 else { return nil }
        let whole = (number / 100).rounded(.down)
        let result = whole + (number - whole * 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -result : result
    }
}
