import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest nav`: a full-screen view that redraws in place, like cgps, until q.
struct NavCommand: ChestCommand {
    static let name = "nav"
    static let abstract = "a full-screen navigator: the receiver at a glance and every goal still to reach"
    static let synopses = ["[--once]"]
    static let discussion = """
        Redraws in place once a second, like cgps, over ssh too: the receiver at a glance (3D FIX or 2D FIX in \
        green; NO FIX in yellow, gpsd and the receiver are there without a position yet: go outside; RECEIVER LOST \
        in red, gpsd said the device went away or no report came for more than 5 s; GPSD GONE; CHESTD NOT \
        ANSWERING; each with why), satellites used/seen, eph/epv, trust, and the age of the last report once it \
        passes 5 s. A fix older than 5 s is never shown as current: its position is dimmed and last known. Then \
        every goal still pending in every message and both sets, places first, nearest first: a visible place with \
        its name, distance, bearing (degrees and compass), an arrow and the arrival at the current speed to its \
        edge (not below 0.5 m/s); a sealed place with the cells tried and no direction (the file does not say \
        where); an altitude to climb or descend to; a page that must open first; a time lock's countdown; the \
        weather or temperature wanted and now; a PIN; a release; a page's question under its goals, before the page \
        opens (a riddle its other locks open too); a long title is cut before its page number, never the number. \
        Then each message's progress, the page that \
        opened last, and the latest events. Arrows point ahead-up while you move, north-up otherwise.

        keys: j or down picks the next goal, k or up the one before (the pick is drawn large above the list), a \
        shows all goals, o the page that opened last (again: back), q quits. The terminal is restored however nav \
        ends. It fits the terminal, showing the goals around the pick ("… 4 more": the goals left out). --once prints one frame with every goal, \
        without escapes when the output is not a terminal, as wide as COLUMNS says (else 100 columns); when chestd does not answer it says the goals are \
        unknown and exits with status 1.
        """
    static let parameters: [Parameter] = [.flag("--once", help: "print one frame with every goal and exit")]

    var once: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        once = values.flag("--once")
    }

    func run(settings: Settings) throws {
        var state = NavState()
        if once || !Terminal.isInteractive {
            refresh(&state, settings)
            state.showAll = true
            // A pipe has no width: COLUMNS, as a shell or a script sets it, else 100 (docs: `man chest` "nav").
            let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap {
                (20...1000).contains($0) ? $0 : nil
            }
            let size = Terminal.isInteractive ? Terminal.size : (columns: columns ?? 100, rows: 200)
            let frame = NavScreen.render(state, columns: size.columns, rows: size.rows, now: Date())
            print(frame.map { Terminal.isInteractive ? $0 : NavScreen.withoutEscapes($0) }.joined(separator: "\n"))
            // A script reading one frame learns from the status that it shows no goals because chestd did not answer.
            if state.status == nil, let problem = state.problem { throw ChestError(problem) }
            return
        }
        Terminal.enter()
        defer { Terminal.restore() }
        var watch: ControlClient?
        var printer = EventPrinter(timeZone: .current, colour: false)
        var lastRefresh = -Double.infinity
        while true {
            var refreshNow = false
            for key in NavKey.parse(Terminal.keys(waiting: 200)) {
                if state.press(key) { return }
            }
            if watch == nil { watch = subscribe(settings) }
            while let client = watch {
                let line: Data?
                do {
                    line = try client.nextLine(timeout: 0.001)
                } catch .timedOut {
                    break
                } catch {
                    watch = nil
                    break
                }
                guard let line else {
                    watch = nil
                    break
                }
                guard let event = try? ChestJSON.decoder().decode(ChestEvent.self, from: line), !event.isFix else {
                    continue
                }
                state.add(event: NavState.eventLine(printer.text(event, receivedAt: Date())), repeating: event.repeats)
                if case let .unlocked(unlock) = event {
                    state.open(title: unlock.title, page: unlock.page, text: unlock.text)
                }
                refreshNow = true
            }
            let now = MonotonicClock.now()
            if now - lastRefresh >= 1 || refreshNow {
                lastRefresh = now
                refresh(&state, settings)
            } else {
                state.regoal(now: Date())
            }
            let size = Terminal.size
            Terminal.draw(NavScreen.render(state, columns: size.columns, rows: size.rows, now: Date()))
        }
    }

    /// Asks chestd for the status, both chests and every locked message.
    private func refresh(_ state: inout NavState, _ settings: Settings) {
        do {
            let status = try CLI.client(settings).call(ControlRequest.status, expecting: StatusReport.self, timeout: 5)
            var items = try CLI.client(settings).call(
                ControlRequest.list(saved: false), expecting: [ListItem].self, timeout: 5)
            items += try CLI.client(settings).call(
                ControlRequest.list(saved: true), expecting: [ListItem].self, timeout: 5)
            let reports = try items.filter { $0.state != .open && !$0.sentByYou }.map { item in
                try CLI.client(settings).call(
                    ControlRequest.read(id: item.id.rawValue), expecting: ReadReport.self, timeout: 5)
            }
            state.update(status: status, items: items, reports: reports)
        } catch {
            state.unreachable("\(error)")
        }
    }

    private func subscribe(_ settings: Settings) -> ControlClient? {
        guard let client = try? CLI.client(settings), (try? client.send(ControlRequest.watch)) != nil,
            let first = try? client.nextLine(timeout: 2), (try? ControlClient.decode(first, as: Empty.self)) != nil
        else { return nil }
        return client
    }
}

extension ChestEvent {
    /// Fix events come every second; the event list leaves them out.
    var isFix: Bool {
        if case .fix = self { true } else { false }
    }

    /// The kind of an event that comes again and again while something lasts (the clock off GPS time), whose
    /// repeats take one line; nil for the others.
    var repeats: String? {
        if case .clock = self { "clock" } else { nil }
    }
}
