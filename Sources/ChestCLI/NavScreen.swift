import ChestCore
import Foundation

/// One frame of `chest nav`, fitted to the terminal: the lines to draw, with ANSI dimming for what is stale.
enum NavScreen {
    static let dim = "\u{1B}[2m", bold = "\u{1B}[1m", plain = "\u{1B}[0m"
    static let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]

    /// The arrow toward `bearing`, turned by the heading when the reader moves (else north is up).
    static func arrow(_ bearing: Double, heading: Double?) -> String {
        let relative = (bearing - (heading ?? 0) + 720).truncatingRemainder(dividingBy: 360)
        return arrows[Int((relative + 22.5) / 45) % 8]
    }

    static func render(_ state: NavState, columns: Int, rows: Int, now: Date, timeZone: TimeZone = .current) -> [String] {
        var lines: [String] = []
        let clock = LockReason.format(now, timeZone, seconds: true)
        lines.append(bold + fit("chest nav   q quits", clock, columns) + plain)
        if let problem = state.problem {
            lines.append("chestd: " + problem)
        }
        if let status = state.status {
            lines += gpsLines(status, state)
        }
        let moving = (state.speed ?? 0) >= 0.5
        lines.append("")
        lines.append(bold + "Targets" + plain + (moving ? " (arrows: ahead is up)" : " (arrows: north is up)"))
        if state.targets.isEmpty { lines.append("  no location lock to reach") }
        var targetLines: [String] = []
        for target in state.targets {
            let label = "\(TerminalText.escaped(target.title)) · page \(target.page) set \(target.set.rawValue)"
            var line: String
            if let metres = target.metres, let bearing = target.bearing {
                let heading = moving ? state.heading : nil
                // The wording of `chest read`: "312 m away (NE)".
                let away = LockReason.away(metres: metres, bearing: bearing).text(now: now)
                line = "  \(arrow(bearing, heading: heading))  \(away.padding(toLength: 17, withPad: " ", startingAt: 0)) \(label)"
                if target.stale { line = dim + line + " (last known; \(target.note ?? "no fix"))" + plain }
            } else {
                line = "  ·  \(label): \(target.note ?? "")"
            }
            targetLines.append(line)
        }
        // Messages and events take what the nearest targets leave.
        let progressLines = state.progress.map { item in
            let width = 10, filled = item.pages == 0 ? 0 : item.open * width / item.pages
            return "  " + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                + " \(item.open)/\(item.pages)  \(TerminalText.escaped(item.title))"
        }
        let fixed = lines.count + 4
        let room = max(rows - fixed, 1)
        let targetRoom = min(targetLines.count, max(room / 2, 1))
        lines += targetLines.prefix(targetRoom)
        if targetLines.count > targetRoom { lines.append("  … \(targetLines.count - targetRoom) more") }
        lines.append("")
        lines.append(bold + "Messages" + plain)
        let progressRoom = max((rows - lines.count - 3) / 2, 1)
        lines += progressLines.prefix(progressRoom)
        if progressLines.isEmpty { lines.append("  the chest is empty") }
        lines.append("")
        lines.append(bold + "Events" + plain)
        let eventRoom = max(rows - lines.count, 0)
        lines += state.events.suffix(eventRoom).reversed().map { "  " + $0 }
        return lines.prefix(rows).map { clip($0, columns) }
    }

    private static func gpsLines(_ status: StatusReport, _ state: NavState) -> [String] {
        var lines: [String] = []
        guard status.gpsd.connected else {
            lines.append(dim + "GPS    gpsd not connected (\(status.gpsd.server))" + (status.gpsd.reason.map { ": " + $0 } ?? "") + plain)
            return lines
        }
        guard let fix = status.fix else {
            lines.append("GPS    no report yet from gpsd at \(status.gpsd.server)")
            return lines
        }
        var parts = [fix.mode.description]
        parts.append(fix.satellitesUsed.map { "\($0) satellites" } ?? "satellites unknown")
        parts.append(fix.eph.map { "±\(Int($0.rounded())) m" } ?? "accuracy unknown")
        if let age = fix.ageSeconds { parts.append(String(format: "fix age %.1f s", age)) }
        let stale = (fix.ageSeconds ?? 0) > Fix.maximumAge
        lines.append((stale ? dim : "") + "GPS    " + parts.joined(separator: " · ") + (stale ? plain : ""))
        if let latitude = fix.latitude, let longitude = fix.longitude, fix.mode.hasPosition {
            let altitude = fix.altitudeMSL.map { String(format: " · %.0f m", $0) } ?? ""
            lines.append(String(format: "       %.5f %@  %.5f %@", abs(latitude), latitude < 0 ? "S" : "N", abs(longitude),
                                longitude < 0 ? "W" : "E") + altitude)
        }
        if let speed = state.speed {
            let heading = state.heading.map { String(format: " · heading %03.0f°", $0) } ?? ""
            lines.append(String(format: "Moving %.1f m/s", speed) + heading)
        }
        return lines
    }

    private static func fit(_ left: String, _ right: String, _ columns: Int) -> String {
        let gap = columns - left.count - right.count
        return gap >= 1 ? left + String(repeating: " ", count: gap) + right : left
    }

    /// The line without its escape sequences, for a pipe.
    static func withoutEscapes(_ line: String) -> String {
        var result = "", inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            result.append(character)
        }
        return result
    }

    /// Cuts a line to the width, not counting escape sequences.
    static func clip(_ line: String, _ columns: Int) -> String {
        var visible = 0, result = "", inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            guard visible < columns else { continue }
            result.append(character)
            visible += 1
        }
        return result
    }
}
