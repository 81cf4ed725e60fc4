import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest status`: the fix at a glance, like cgps; `--watch` redraws it once a second.
struct StatusCommand: ChestCommand {
    static let name = "status"
    static let abstract = "gpsd, the fix, the clock, the weather, counts"
    static let discussion = """
        The gpsd connection, the fix (mode, position, altitude, accuracy, satellites, age, trust), the system clock \
        and its offset from GPS time, the weather cache, the message counts (the regular chest by state, and the \
        saved chest), and the sealed places chestd is still deriving keys for, with an estimate of the time left. \
        A fix chestd no longer counts as current (no report for more than 5 s, or twice a slower receiver's cadence, \
        the receiver gone) is shown with why; a place you stand in that waits for its confirming fixes is shown \
        with how many came and, on a slow receiver, how often fixes come. Colour only on a terminal, never with \
        NO_COLOR. --watch redraws once a second until interrupted.

        --json prints one object with gpsd, fix (with cadenceSeconds), fixState, clock, weather, messages, sealed \
        and confirming; unknown numbers are null. fixState is chestd's verdict on the fix now: hasFix while the \
        last report is a 2D or 3D fix at most 5 s old (twice a slower receiver's cadence, up to 15 s), else a cause (gpsd, receiver, waiting, silent, noFix) and the reason \
        (docs/DESIGN.md "The fix at a glance").
        """
    static let parameters: [Parameter] = [.json, .flag("--watch", help: "redraw once a second until interrupted")]

    var json: Bool
    var watch: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        json = values.flag("--json")
        watch = values.flag("--watch")
    }

    func run(settings: Settings) throws {
        let colour = !json && Output.colour
        repeat {
            let answer = Result { () throws(ControlClientError) in
                try ControlClient(socketPath: settings.socketPath).call(
                    ControlRequest.status, expecting: StatusReport.self)
            }
            if !json, case .failure(.notRunning) = answer { print(Self.offline(settings, colour: colour)) }
            let report = try answer.get()
            if json {
                print(CLI.jsonText(report))
            } else {
                if watch { print("\u{1B}[H\u{1B}[2J", terminator: "") }
                print(Self.text(report, colour: colour))
            }
            fflush(nil)
            if watch { sleep(1) }
        } while watch
    }

    static func text(_ report: StatusReport, colour: Bool) -> String {
        let paint: Paint = { text, code in colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var lines: [String] = []
        let gpsd =
            report.gpsd.connected
            ? paint("connected", "32") + " (\(report.gpsd.server))"
            : paint("not connected", "31") + " (\(report.gpsd.server)\(report.gpsd.reason.map { ": " + $0 } ?? ""))"
        lines.append(row("gpsd", gpsd))
        lines += fixRows(report, paint)
        // Why a place the reader stands in has not opened yet (docs/DESIGN.md "Lock rules").
        for place in report.confirming ?? [] {
            let what = place.kind == .altitude ? "altitude" : "place"
            lines.append(
                row(
                    "confirming",
                    "\(what) of \u{201C}\(TerminalText.escaped(place.title))\u{201D} page \(place.page): \(place.reason)"
                ))
        }
        lines += clockRows(report.clock, paint)
        if let weather = report.weather {
            let condition = weather.condition ?? "unknown conditions"
            let temperature = weather.temperatureC.map { String(printf: ", %.1f °C", $0) } ?? ""
            lines.append(
                row(
                    "weather",
                    "\(condition)\(temperature), observed \(Int(weather.ageSeconds / 60)) min ago (\(weather.provider))"
                ))
        } else {
            lines.append(row("weather", "no reading"))
        }
        let counts = report.messages
        lines.append(
            row(
                "messages",
                "\(counts.locked) locked, \(counts.partial) partial, \(counts.open) open, \(counts.saved) saved"))
        if let sealed = report.sealed, sealed.pending + sealed.cellsTried + sealed.deriving > 0 {
            var text =
                "\(sealed.pending) sealed location locks pending, \(sealed.cellsTried) cells tried, \(sealed.deriving) being tried"
            if let waiting = sealed.waitingSentence { text += "; " + waiting }
            lines.append(row("sealed", text))
        }
        if let hunt = report.hunt { lines += huntRows(hunt, now: report.clock.system) }
        for note in report.notes { lines.append(row("note", note)) }
        return lines.joined(separator: "\n")
    }

    /// Colours a text with an SGR code ("32" green) on a terminal, or leaves it as it is.
    typealias Paint = (_ text: String, _ code: String) -> String

    /// The fix's rows: its mode and whether chestd counts it current, then what it says.
    private static func fixRows(_ report: StatusReport, _ paint: Paint) -> [String] {
        var lines: [String] = []
        if let fix = report.fix {
            let mode = fix.mode.description
            // chestd's verdict when it gives one: a fix kept from a silent or departed receiver is not current.
            let lost =
                report.fixState.map { $0.hasFix ? nil : $0.reason ?? "" }
                ?? ((fix.ageSeconds ?? 0) > Fix.maximumAge ? "stale" : nil)
            lines.append(
                row(
                    "fix",
                    paint(mode, fix.mode.hasPosition && lost == nil ? "32" : "33")
                        + (lost.map { " (not current: \($0))" } ?? "")))
            if let latitude = fix.latitude, let longitude = fix.longitude {
                lines.append(row("position", Output.position(latitude, longitude)))
            }
            lines.append(
                row("altitude", fix.altitudeMSL.map { String(printf: "%.1f m above sea level", $0) } ?? "unknown"))
            let horizontal = fix.eph.map { "±\(Int($0.rounded())) m horizontal" } ?? "horizontal unknown"
            let vertical = fix.epv.map { "±\(Int($0.rounded())) m vertical" } ?? "vertical unknown"
            lines.append(row("accuracy", "\(horizontal), \(vertical)"))
            lines.append(
                row(
                    "satellites",
                    fix.satellitesUsed.map { used in
                        "\(used) used" + (fix.satellitesSeen.map { ", \($0) seen" } ?? "")
                    } ?? "unknown"))
            let cadence = fix.cadenceSeconds.flatMap {
                $0 >= 2 ? ", fixes come every \(LockReason.cadence($0)) s" : nil
            }
            lines.append(
                row("age", (fix.ageSeconds.map { String(printf: "%.1f s", $0) } ?? "unknown") + (cadence ?? "")))
            lines.append(row("receiver", fix.source.map { "\($0.description), \($0.kind.rawValue)" } ?? "unknown"))
            if let trust = fix.trust {
                lines.append(row("trust", paint(trust.description, trust.level == .hardware ? "32" : "33")))
            }
        } else {
            lines.append(row("fix", paint(LockReason.noFix(gpsConnected: report.gpsd.connected), "33")))
        }
        return lines
    }

    /// The clock's rows: the system clock against GPS time, and which of them time locks follow.
    private static func clockRows(_ clock: StatusReport.Clock, _ paint: Paint) -> [String] {
        var lines: [String] = []
        var text = LockReason.format(clock.system, .current, seconds: true)
        if let offset = clock.gpsOffsetSeconds { text += ", \(Wording.offset(offset)) of GPS time" }
        if clock.usingGPSTime { text += paint(" (ahead: time locks follow GPS time)", "33") }
        if clock.rolloverSuspected { text += paint(" (GPS time implausible: receiver week rollover?)", "33") }
        lines.append(row("clock", text))
        lines.append(
            row(
                "time locks",
                "follow the \(clock.decidedBy == "gps" ? "GPS" : "system") clock: \(clock.why)"))
        return lines
    }

    /// The hunt's rows: the link, its schedule, the organiser's last word.
    private static func huntRows(_ hunt: HuntLinkStatus, now: Date) -> [String] {
        var lines: [String] = []
        let link = hunt.connected ? "connected" : "not connected" + (hunt.problem.map { " (\($0))" } ?? "")
        var text =
            "\u{201C}\(TerminalText.escaped(hunt.name))\u{201D} as team \(hunt.team) on \(hunt.broker): \(link); \(hunt.outbox) in the outbox"
        let ignored = hunt.ignored.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        if !ignored.isEmpty {
            text += "; ignored " + ignored.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        if !hunt.releases.isEmpty { text += "; released: " + hunt.releases.joined(separator: ", ") }
        lines.append(row("hunt", text))
        let schedule = hunt.schedule
        if !schedule.isEmpty {
            lines.append(
                row(
                    "window",
                    HuntScheduleCommand.describe(schedule)
                        + (schedule.countdown(at: now).map { "; " + $0 } ?? "")))
        }
        if let said = hunt.said?.last {
            lines.append(
                row(
                    "organiser",
                    "\u{201C}\(TerminalText.escaped(said.text))\u{201D} (\(ISO8601.string(said.at))"
                        + (said.team == nil ? ")" : "; to your team alone)")))
        }
        return lines
    }

    /// What can be said without chestd: where it would read gpsd, the clock, and the chest's files.
    static func offline(_ settings: Settings, colour: Bool) -> String {
        let down = colour ? "\u{1B}[31mnot running\u{1B}[0m" : "not running"
        func count(_ directory: String) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: settings.chestDirectory + "/" + directory)) ?? [])
                .count { $0.hasSuffix(".locked") && !$0.hasPrefix(".") }
        }
        let gpsd = settings.gpsd
        return [
            row("chestd", "\(down) (nothing answers on \(settings.socketPath))"),
            row("gpsd", "\(gpsd.host):\(gpsd.port), read by chestd when it runs"),
            row("clock", LockReason.format(Date(), .current, seconds: true)),
            row("chest", "\(settings.chestDirectory): \(count("messages")) messages, \(count("saved")) saved"),
        ].joined(separator: "\n")
    }

    private static func row(_ label: String, _ value: String) -> String {
        Output.pad(label, 11) + value
    }
}
