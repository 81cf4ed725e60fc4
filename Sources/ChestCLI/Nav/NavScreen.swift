import ChestArguments
import ChestCore
import FoundationEssentials

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

    static func render(_ state: NavState, columns: Int, rows: Int, now: Date, timeZone: Zone = .current) -> [String] {
        let keys =
            state.opened == nil
            ? "chest nav   j/k ↑/↓ pick · a all · q quit" : "chest nav   j/k ↑/↓ pick · a all · o page · q quit"
        var lines = [bold + fit(keys, LockReason.clock(now, timeZone), columns) + plain]
        if state.showPage, let opened = state.opened {
            lines.append(
                cutQuoted(bold + "\u{201C}\(opened.title)\u{201D} page \(opened.page)" + plain + "  (o: back)", columns)
            )
            lines.append("")
            lines += TextWrap.lines(opened.text, columns: columns, indent: "  ")
            return lines.prefix(rows).map { clip($0, columns) }
        }
        lines += receiverLines(state, columns: columns)
        lines += huntLines(state, now: now, columns: columns)
        let moving = (state.speed ?? 0) >= NavGoal.movingSpeed
        let heading = moving ? state.heading : nil
        if let goal = state.selected, !state.showAll {
            lines.append("")
            lines += targetLines(goal, heading: heading, columns: columns)
        }
        lines.append("")
        let north = moving ? "ahead is up" : "north is up"
        lines.append(bold + "Goals (\(state.goals.count))" + plain + (state.goals.isEmpty ? "" : "  arrows: \(north)"))
        if state.goals.isEmpty {
            lines.append(
                state.status == nil && state.problem != nil
                    ? "  unknown until chestd answers"
                    : "  nothing to reach: every page is open, or the chest is empty")
        }
        // The goals' names give way to what they need: the name column is what the longest need leaves.
        let need = state.goals.map(\.detail.count).max() ?? 0
        let nameWidth = min(max(columns - goalPrefix - 1 - need, 8), 40)
        let listed = state.goals.map {
            goalLines(
                $0, selected: $0.key == state.selected?.key, heading: heading, nameWidth: nameWidth, columns: columns)
        }
        // Without `a`, messages, the page opened last and events keep a few rows; the list shows the goals around
        // the pick.
        let kept = 6 + (state.opened == nil ? 0 : 2)
        let room = state.showAll ? rows - lines.count : max(rows - lines.count - kept, 1)
        lines += window(listed, around: min(state.selectedIndex ?? 0, max(listed.count - 1, 0)), room: room)
        guard !state.showAll else { return lines.prefix(rows).map { clip($0, columns) } }
        lines.append("")
        lines.append(bold + "Messages" + plain)
        let progressRoom = max((rows - lines.count - 2) / 2, 1)
        if state.progress.isEmpty { lines.append("  the chest is empty") }
        lines += state.progress.prefix(progressRoom).map { item in
            let width = 10
            let filled = item.pages == 0 ? 0 : item.open * width / item.pages
            return "  " + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                + " \(item.open)/\(item.pages)  \(TerminalText.escaped(item.title))"
                + (item.tag.map { "  (\($0))" } ?? "")
        }
        if let opened = state.opened {
            lines.append(
                cutQuoted(
                    bold + "Opened" + plain
                        + "  \u{201C}\(opened.title)\u{201D} page \(opened.page)  (o: the whole page)",
                    columns))
            let text = TextWrap.lines(opened.text, columns: columns, indent: "  ")
            let room = max(min(3, rows - lines.count - 3), 1)
            lines += text.prefix(room)
            if text.count > room { lines[lines.count - 1] = clip(lines[lines.count - 1], max(columns - 2, 1)) + " …" }
        }
        lines.append(bold + "Events" + plain)
        lines += state.events.suffix(max(rows - lines.count, 0)).reversed().map { cutQuoted("  " + $0, columns) }
        return lines.prefix(rows).map { clip($0, columns) }
    }

    /// The headline in colour, why, and the fix's detail; the position and motion under it. Nothing is cut: what
    /// does not fit the width goes on to the next line.
    /// The hunt's countdown ("the hunt starts in 12 min") and the organiser's latest word (docs/HUNTS.md).
    static func huntLines(_ state: NavState, now: Date, columns: Int) -> [String] {
        guard let hunt = state.status?.hunt else { return [] }
        var lines: [String] = []
        if let countdown = hunt.schedule.countdown(at: now) {
            lines.append(bold + "  " + countdown + plain)
        }
        if let said = hunt.said?.last {
            lines += TextWrap.lines(
                "the organiser says" + (said.team == nil ? "" : " to your team alone") + ": "
                    + TerminalText.escaped(said.text), columns: columns, indent: "  ")
        }
        return lines
    }

    private static func receiverLines(_ state: NavState, columns: Int) -> [String] {
        let receiver = state.receiver
        let colour =
            switch receiver.level {
            case .fix: green
            case .waiting: yellow
            case .lost: red
            }
        let head = " \(receiver.headline) "
        var lines: [String]
        if let reason = receiver.reason, head.count + 2 + reason.count > columns {
            lines = [colour + head + plain] + TextWrap.lines(reason, columns: columns, indent: "  ")
        } else {
            lines = [colour + head + plain + (receiver.reason.map { "  " + $0 } ?? "")]
        }
        if !receiver.details.isEmpty {
            for text in TextWrap.lines(receiver.details.joined(separator: " · "), columns: columns, indent: "  ") {
                lines.append(receiver.detailsAreOld ? dim + text + plain : text)
            }
        }
        if let position = state.lastPosition {
            var text =
                String(printf: "  %.5f ", abs(position.latitude)) + (position.latitude < 0 ? "S" : "N")
                + String(printf: "  %.5f ", abs(position.longitude)) + (position.longitude < 0 ? "W" : "E")
            if receiver.level == .fix, let altitude = state.status?.fix?.altitudeMSL {
                text += String(printf: " · %.0f m", altitude)
            }
            if let speed = state.speed {
                text +=
                    String(printf: " · moving %.1f m/s", speed)
                    + (state.heading.map { String(printf: " heading %03.0f°", $0) } ?? "")
            }
            lines.append(receiver.level == .fix ? text : dim + text + " (last known)" + plain)
        }
        if let waiting = state.status?.sealed?.waitingSentence { lines.append("  " + waiting) }
        return lines
    }

    /// The picked goal, large: its name, and for a place the arrow, distance, bearing and arrival. A long name is
    /// shortened before its kind.
    private static func targetLines(_ goal: NavGoal, heading: Double?, columns: Int) -> [String] {
        let kind = "  (\(goal.kind.rawValue))"
        let room = max(columns - 2 - kind.count, 8)
        var lines: [String]
        if goal.name == goal.owner {
            lines = [bold + "▶ \(titled(goal, withPlace: false, width: room))" + plain + kind]
        } else {
            let name = shortened(goal.name, to: room)
            let left = room - name.count - 2
            let rest = left >= goal.pageSuffix.count + 4 ? "  " + titled(goal, withPlace: false, width: left) : ""
            lines = [bold + "▶ \(name)" + plain + kind + rest]
        }
        var second = "    "
        if let bearing = goal.bearing {
            second += arrow(bearing, heading: heading) + "  "
        }
        second += goal.detail
        lines.append(goal.stale ? dim + second + plain : second)
        if let hints = goal.hints { lines.append("    " + hints) }
        return lines
    }

    /// The width of a goal line before its name: marker, arrow, kind.
    static let goalPrefix = 16

    /// The least of a goal's name a line keeps before its need goes to a line of its own.
    static let nameKept = 16

    /// A goal in the list: the pick's marker, an arrow for a place, the kind, the goal (shortened to `nameWidth`),
    /// and what it needs, on one line; when the need would leave the name less than `nameKept` characters (a narrow
    /// terminal, a long need), the need goes under it, wrapped, so neither end of the line is cut.
    private static func goalLines(_ goal: NavGoal, selected: Bool, heading: Double?, nameWidth: Int, columns: Int)
        -> [String]
    {
        let marker = selected ? "▶" : " "
        let pointer = goal.bearing.map { Self.arrow($0, heading: heading) } ?? "·"
        let withPlace = goal.kind == .place && goal.name != goal.owner
        let fullName = titled(goal, withPlace: withPlace, width: Int.max)
        let kind = Output.pad(goal.kind.rawValue, 11)
        let head = "\(marker) \(pointer) \(kind) "
        let indent = String(repeating: " ", count: head.count)
        // A need longer than the others takes from this line's name too.
        let width = min(nameWidth, columns - head.count - 1 - goal.detail.count)
        var lines: [String]
        if width >= min(nameKept, fullName.count) {
            lines = [head + Output.pad(titled(goal, withPlace: withPlace, width: width), width) + " " + goal.detail]
        } else {
            lines =
                [head + titled(goal, withPlace: withPlace, width: max(columns - head.count, 3))]
                + TextWrap.lines(goal.detail, columns: columns, indent: indent)
        }
        if let question = goal.question {
            lines.append(indent + shortened(question, to: max(columns - head.count, 3)))
        }
        return lines.map { goal.stale ? dim + $0 + plain : (selected ? bold + $0 + plain : $0) }
    }

    /// At most `room` lines of the goals' lines (each goal's lines together), the picked goal's and as many around
    /// it as fit, with the goals left out counted: "… 4 more" is 4 goals, not lines.
    private static func window(_ goals: [[String]], around picked: Int, room: Int) -> [String] {
        guard goals.reduce(0, { $0 + $1.count }) > room, goals.indices.contains(picked) else {
            return goals.flatMap { $0 }
        }
        let shown = max(room - 1, 1)
        var low = picked
        var high = picked + 1
        var used = goals[picked].count
        var grew = true
        while grew {
            grew = false
            if high < goals.count, used + goals[high].count <= shown {
                used += goals[high].count
                high += 1
                grew = true
            }
            if low > 0, used + goals[low - 1].count <= shown {
                used += goals[low - 1].count
                low -= 1
                grew = true
            }
        }
        let left = goals.count - (high - low)
        return Array(goals[low..<high].flatMap { $0 }.prefix(shown))
            + (left > 0 ? ["  … \(left) more (a: all)"] : [])
    }

    /// A goal's title and page, with its place's name before them when `withPlace`, in at most `width`
    /// characters: the title gives way first, then the place's name; the page ("p3", "p3 set B") never.
    static func titled(_ goal: NavGoal, withPlace: Bool, width: Int) -> String {
        let place = withPlace ? goal.name + " · " : ""
        let title = TerminalText.escaped(goal.title)
        let page = goal.pageSuffix
        guard place.count + title.count + page.count > width else { return place + title + page }
        let titleRoom = width - place.count - page.count
        if titleRoom >= 4 { return place + shortened(title, to: titleRoom) + page }
        let kept = shortened(title, to: 4) + page
        guard width > kept.count else { return shortened(kept, to: width) }
        return shortened(place, to: width - kept.count) + kept
    }

}
