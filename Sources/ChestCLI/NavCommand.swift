import ChestArguments
import ChestCore
import ChestIO
import Foundation
import Glibc

/// `chest nav`: a full-screen view that redraws in place, like cgps, until q.
struct NavCommand: ChestCommand {
    static let name = "nav"
    static let abstract = "a full-screen navigator: the fix, the way to each location lock, progress and events"
    static let synopses = ["[--once]"]
    static let discussion = """
        Redraws in place once a second: the fix (mode, position, accuracy, satellites, age), speed and heading,
        each location lock still to reach with its distance and an arrow toward it (ahead is up while you
        move, north otherwise), nearest first, each message's progress and the latest events. When gpsd drops,
        the last known distances stay, dimmed. Fits the terminal, works over ssh; q quits, and the terminal is
        restored however nav ends. --once prints one frame without redrawing.
        """
    static let parameters: [Parameter] = [.flag("--once", help: "print one frame and exit")]

    var once: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        once = values.flag("--once")
    }

    func run(settings: Settings) throws {
        var state = NavState()
        if once || !Terminal.isInteractive {
            refresh(&state, settings)
            let size = Terminal.isInteractive ? Terminal.size : (columns: 100, rows: 40)
            let frame = NavScreen.render(state, columns: size.columns, rows: size.rows, now: Date())
            print(frame.map { Terminal.isInteractive ? $0 : NavScreen.withoutEscapes($0) }.joined(separator: "\n"))
            return
        }
        Terminal.enter()
        defer { Terminal.restore() }
        var watch: ControlClient?
        var printer = EventPrinter(timeZone: .current, colour: false)
        var lastRefresh = -Double.infinity
        while true {
            let keys = Terminal.keys(waiting: 200)
            if keys.contains(UInt8(ascii: "q")) || keys.contains(UInt8(ascii: "Q")) || keys.contains(3) { return }
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
                if let event = try? ChestJSON.decoder().decode(ChestEvent.self, from: line), !event.isFix {
                    // The first line: an unlock's page text stays for chest read.
                    state.add(event: String(printer.text(event, receivedAt: Date()).prefix { $0 != "\n" }))
                }
            }
            let now = MonotonicClock.now()
            if now - lastRefresh >= 1 || !keys.isEmpty {
                lastRefresh = now
                refresh(&state, settings)
            }
            let size = Terminal.size
            Terminal.draw(NavScreen.render(state, columns: size.columns, rows: size.rows, now: Date()))
        }
    }

    /// Asks chestd for the status, both chests and every locked message.
    private func refresh(_ state: inout NavState, _ settings: Settings) {
        do {
            let status = try CLI.client(settings).call(ControlRequest.status, expecting: StatusReport.self, timeout: 5)
            var items = try CLI.client(settings).call(ControlRequest.list(saved: false), expecting: [ListItem].self, timeout: 5)
            items += try CLI.client(settings).call(ControlRequest.list(saved: true), expecting: [ListItem].self, timeout: 5)
            let reports = try items.filter { $0.state != .open && !$0.sentByYou }.map { item in
                try CLI.client(settings).call(ControlRequest.read(id: item.id.rawValue), expecting: ReadReport.self, timeout: 5)
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
}
