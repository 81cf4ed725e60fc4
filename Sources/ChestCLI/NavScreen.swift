import ChestCore
import Foundation

/// One frame of `chest nav`, fitted to the terminal: the lines to draw, with ANSI colour for the receiver's state
/// and dimming for what is no longer current. It only lays out what NavState worked out.
enum NavScreen {
    static let dim = "\u{1B}[2m", bold = "\u{1B}[1m", plain = "\u{1B}[0m"
    static let green = "\u{1B}[1;30;42m", yellow = "\u{1B}[1;30;43m", red = "\u{1B}[1;37;41m"
    static let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]

    /// The arrow toward `bearing`, turned by the heading when the reader moves (else north is up).
    static func arrow(_ bearing: Double, heading: Double?) -> String {
        let relative = (bearing - (heading ?? 0) + 720).truncatingRemainder(dividingBy: 360)
        return arrows[Int((relative + 22.5) / 45) % 8]
    }

    static func render(_ state: NavState, columns: Int, rows: Int, now: Date, timeZone: TimeZone = .current) -> [String] {
        var lines = [bold + fit("chest nav   j/k ↑/↓ pick · a all · q quit", LockReason.clock(now, timeZone), columns) + plain]
        lines += receiverLines(state)
        let moving = (state.speed ?? 0) >= NavGoal.movingSpeed
        let heading = moving ? state.heading : nil
        if let goal = state.selected, !state.showAll {
            lines.append("")
            lines += targetLines(goal, heading: heading)
        }
        lines.append("")
        let north = moving ? "ahead is up" : "north is up"
        lines.append(bold + "Goals (\(state.goals.count))" + plain + (state.goals.isEmpty ? "" : "  arrows: \(north)"))
        if state.goals.isEmpty {
            lines.append(state.status == nil && state.problem != nil
                ? "  unknown until chestd answers"
                : "  nothing to reach: every page is open, or the chest is empty")
        }
        let goalLines = state.goals.map { goalLine($0, selected: $0.key == state.selected?.key, heading: heading) }
        // Without `a`, messages and events keep a few rows; the list shows a window around the pick.
        let room = state.showAll ? rows - lines.count : max(rows - lines.count - 6, 1)
        lines += window(goalLines, around: state.selectedIndex ?? 0, room: room)
        guard !state.showAll else { return lines.prefix(rows).map { clip($0, columns) } }
        lines.append("")
        lines.append(bold + "Messages" + plain)
        let progressRoom = max((rows - lines.count - 2) / 2, 1)
        if state.progress.isEmpty { lines.append("  the chest is empty") }
        lines += state.progress.prefix(progressRoom).map { item in
            let width = 10, filled = item.pages == 0 ? 0 : item.open * width / item.pages
            return "  " + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                + " \(item.open)/\(item.pages)  \(TerminalText.escaped(item.title))"
        }
        lines.append(bold + "Events" + plain)
        lines += state.events.suffix(max(rows - lines.count, 0)).reversed().map { "  " + $0 }
        return lines.prefix(rows).map { clip($0, columns) }
    }

    /// The headline in colour, why, and the fix's detail; the position and motion under it.
    private static func receiverLines(_ state: NavState) -> [String] {
        let receiver = state.receiver
        let colour = switch receiver.level {
        case .fix: green
        case .waiting: yellow
        case .lost: red
        }
        var lines = [colour + " \(receiver.headline) " + plain + (receiver.reason.map { "  " + $0 } ?? "")]
        if !receiver.details.isEmpty {
            let text = "  " + receiver.details.joined(separator: " · ")
            lines.append(receiver.detailsAreOld ? dim + text + plain : text)
        }
        if let position = state.lastPosition {
            var text = String(format: "  %.5f %@  %.5f %@", abs(position.latitude), position.latitude < 0 ? "S" : "N",
                              abs(position.longitude), position.longitude < 0 ? "W" : "E")
            if receiver.level == .fix, let altitude = state.status?.fix?.altitudeMSL { text += String(format: " · %.0f m", altitude) }
            if let speed = state.speed {
                text += String(format: " · moving %.1f m/s", speed) + (state.heading.map { String(format: " heading %03.0f°", $0) } ?? "")
            }
            lines.append(receiver.level == .fix ? text : dim + text + " (last known)" + plain)
        }
        if let waiting = state.status?.sealed?.waitingSentence { lines.append("  " + waiting) }
        return lines
    }

    /// The picked goal, large: its name, and for a place the arrow, distance, bearing and arrival.
    private static func targetLines(_ goal: NavGoal, heading: Double?) -> [String] {
        let owner = goal.name == goal.owner ? "" : "  " + goal.owner
        var lines = [bold + "▶ \(goal.name)" + plain + "  (\(goal.kind.rawValue))" + owner]
        var second = "    "
        if let bearing = goal.bearing {
            second += arrow(bearing, heading: heading) + "  "
        }
        second += goal.detail
        lines.append(goal.stale ? dim + second + plain : second)
        return lines
    }

    /// One line of the goal list: the pick's marker, an arrow for a place, the kind, the goal, and what it needs.
    private static func goalLine(_ goal: NavGoal, selected: Bool, heading: Double?) -> String {
        let marker = selected ? "▶" : " "
        let pointer = goal.bearing.map { Self.arrow($0, heading: heading) } ?? "·"
        let name = goal.kind == .place && goal.name != goal.owner ? "\(goal.name) · \(goal.owner)" : goal.owner
        let line = "\(marker) \(pointer) \(Output.pad(goal.kind.rawValue, 11)) \(Output.pad(name, 26)) \(goal.detail)"
        return goal.stale ? dim + line + plain : (selected ? bold + line + plain : line)
    }

    /// At most `room` lines of `lines`, keeping line `index` in view, with what is left out counted.
    private static func window(_ lines: [String], around index: Int, room: Int) -> [String] {
        guard lines.count > room else { return lines }
        let shown = max(room - 1, 1)
        let start = min(max(index - shown / 2, 0), lines.count - shown)
        return Array(lines[start..<(start + shown)]) + ["  … \(lines.count - shown) more (a: all)"]
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
