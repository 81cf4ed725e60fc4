import ChestCore
import FoundationEssentials

/// What `chest nav` shows, gathered from chestd each second: the receiver at a glance, every pending goal of
/// every message, the goal picked, each message's progress and the latest events. Pure, so it is tested without
/// a terminal (NavStateTests).
struct NavState {
    struct Progress: Equatable {
        var title: String
        var open: Int
        var pages: Int
        /// The message's short ID when another message has the same title, so the two can be told apart.
        var tag: String?
    }

    var status: StatusReport?
    /// Why chestd could not be asked.
    var problem: String?
    var receiver = NavReceiver.assess(nil, problem: "not asked yet")
    /// Every pending goal, places nearest first (NavGoal.ordered).
    var goals: [NavGoal] = []
    /// The key of the goal picked with j/k or the arrows; the first goal when none is.
    var selectedKey: String?
    /// `a`: the goal list takes the whole screen.
    var showAll = false
    var progress: [Progress] = []
    var events: [String] = []
    /// The page opened last, its text shown under the messages; `o` shows it on the whole screen.
    var opened: Opened?
    var showPage = false
    /// The kind of the last event and how many of that kind came in a row, when it is one that repeats.
    private var repeating: (kind: String, count: Int)?
    /// Metres per second and degrees from north, from the last two distinct fixes while the fix is current.
    var speed: Double?
    var heading: Double?
    /// The last position seen, kept (as last known) when the fix goes.
    private(set) var lastPosition: Coordinate?
    private var previous: (position: Coordinate, time: Date)?
    private var reports: [ReadReport] = []

    static let eventsKept = 50

    /// Takes chestd's answers: its status, both chests' lists and the read report of each message not open yet.
    mutating func update(status: StatusReport, items: [ListItem], reports: [ReadReport], timeZone: Zone = .current) {
        self.status = status
        problem = nil
        receiver = NavReceiver.assess(status, problem: nil)
        let current = receiver.level == .fix
        observeMotion(current ? status.fix : nil, now: status.clock.system)
        if let fix = status.fix, fix.mode.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude {
            lastPosition = Coordinate(latitude: latitude, longitude: longitude)
        }
        var shortIDs = ShortIDs()
        shortIDs.insert(items.map(\.id))
        let titles = Dictionary(grouping: items, by: \.title)
        progress = items.map { item in
            Progress(
                title: item.title, open: item.openPages.count, pages: item.pages,
                tag: (titles[item.title]?.count ?? 0) > 1 ? shortIDs.short(item.id) : nil)
        }
        self.reports = reports
        regoal(now: status.clock.system, timeZone: timeZone)
    }

    /// Makes the goals again from the last reports: at each update, and when the clock moves on between them.
    mutating func regoal(now: Date, timeZone: Zone = .current) {
        let current = receiver.level == .fix
        let fix = status?.fix
        let context = NavContext(
            position: lastPosition, positionIsCurrent: current && lastPosition != nil,
            altitude: current && fix?.mode.is3D == true ? fix?.altitudeMSL : nil,
            speed: current ? speed : nil, now: now, timeZone: timeZone)
        goals = reports.flatMap { NavGoal.goals(of: $0, context) }.sorted(by: NavGoal.ordered)
    }

    mutating func unreachable(_ problem: String) {
        self.problem = problem
        status = nil
        receiver = NavReceiver.assess(nil, problem: problem)
        speed = nil
        heading = nil
        for index in goals.indices where goals[index].metres != nil { goals[index].stale = true }
    }

    /// A page as it opened: its message's title, its number and its text (escaped for the terminal).
    struct Opened: Equatable {
        var title: String
        var page: Int
        var text: String
    }

    /// Adds an event line. Events of a `repeating` kind (clock warnings, twice a second in a fast replay) that come
    /// in a row take one line, the latest with how many there were, so they never push out an unlock.
    mutating func add(event: String, repeating kind: String? = nil) {
        if let kind, let last = repeating, last.kind == kind, !events.isEmpty {
            repeating = (kind, last.count + 1)
            events[events.count - 1] = event + "  (\(last.count + 1) in a row)"
            return
        }
        repeating = kind.map { ($0, 1) }
        events.append(event)
        if events.count > Self.eventsKept { events.removeFirst(events.count - Self.eventsKept) }
    }

    /// An event as one line of the Events list: its first line and, for an unlock or a hint, the start of the text
    /// under it ("… page 2 is open — Under the oak"), so the line says more than a title.
    static func eventLine(_ printed: String) -> String {
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { return "" }
        guard let text = lines.dropFirst().first?.trimmingSpaces(), !text.isEmpty else { return String(first) }
        return first + " — " + text
    }

    /// A page opened: its text is shown from now on.
    mutating func open(title: String, page: Int, text: String) {
        opened = Opened(
            title: TerminalText.escaped(title), page: page, text: TerminalText.escaped(text, keepingNewlines: true))
    }

    /// The goal picked: the one selected, or the first (the nearest place) when none is or it was reached.
    var selected: NavGoal? {
        goals.first { $0.key == selectedKey } ?? goals.first
    }

    /// The index of the picked goal in `goals`.
    var selectedIndex: Int? {
        guard let selected else { return nil }
        return goals.firstIndex { $0.key == selected.key }
    }

    /// Moves the pick `offset` goals down the list (up when negative), stopping at either end.
    mutating func move(_ offset: Int) {
        guard let index = selectedIndex else { return }
        selectedKey = goals[min(max(index + offset, 0), goals.count - 1)].key
    }

    /// Takes one key: j/k or the arrows pick, a shows all; true when it asks to quit.
    mutating func press(_ key: NavKey) -> Bool {
        switch key {
        case .down: move(1)
        case .up: move(-1)
        case .all: showAll.toggle()
        case .page: showPage = opened != nil && !showPage
        case .quit: return true
        }
        return false
    }

    private mutating func observeMotion(_ fix: StatusReport.FixReport?, now: Date) {
        guard let fix, fix.mode.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else {
            speed = nil
            heading = nil
            previous = nil
            return
        }
        let position = Coordinate(latitude: latitude, longitude: longitude)
        let time = fix.time ?? now
        if let previous, time > previous.time {
            let metres = previous.position.distance(to: position)
            speed = metres / time.timeIntervalSince(previous.time)
            if metres >= 1 { heading = previous.position.bearing(to: position) }
        }
        if previous?.time != time { previous = (position, time) }
    }
}

/// A key nav understands.
enum NavKey: Equatable {
    case up, down, all, page, quit

    /// The keys in what the terminal sent: j/k and the arrow keys (ESC [ A/B, or ESC O A/B in application mode),
    /// a, o (the opened page on the whole screen), and q or Ctrl-C; anything else is ignored.
    static func parse(_ bytes: [UInt8]) -> [NavKey] {
        var keys: [NavKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O")
            {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                default: break
                }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: "j"): keys.append(.down)
            case UInt8(ascii: "k"): keys.append(.up)
            case UInt8(ascii: "a"), UInt8(ascii: "A"): keys.append(.all)
            case UInt8(ascii: "o"), UInt8(ascii: "O"): keys.append(.page)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3: keys.append(.quit)
            default: break
            }
            index += 1
        }
        return keys
    }
}
