import ChestArguments
import ChestCore
import ChestGPX
import ChestIO
import ChestSimulator
import FoundationEssentials

/// `chest simulate QUEST|FILE... TRACK [--weather CONDITION[,TEMP]]`: a rehearsal in-process.
struct SimulateCommand: ChestCommand {
    static let name = "simulate"
    static let abstract = "replay a recorded track through the engine and print when each page opens"
    static let synopses = [
        "QUEST|FILE... TRACK [--weather CONDITION[,TEMP]] [--answer [NAME#]PAGE=TEXT]...",
        "QUEST|FILE... TRACK --gpsd [--weather CONDITION[,TEMP]]",
    ]
    static let discussion = """
        Replays TRACK (a GPX track, an NMEA log, or a chest-walk description) through the same engine \
        chestd runs, in-process and much faster than real time, with the clocks taken from the track. Prints \
        when each lock latched and each page opened, at which point of the track, and why the pages that \
        never opened did not. PINs are never entered; --answer PAGE=TEXT (or NAME#PAGE=TEXT for one message \
        of a quest) answers the question of that page, so its answer lock holds from the first point when TEXT \
        is one of its answers (compared as chest answer compares). --weather gives the weather every request gets (a \
        condition, a temperature in °C, or both: snowy,-2), else the weather stays unknown. In-process, message \
        files with sealed pages (format 2 and later) are refused, as only chestd derives their keys: rehearse their \
        quest, or the files with --gpsd.

        --gpsd checks the whole path instead: gpsfake replays the track into a real gpsd, read by a private \
        chestd (its own chest, socket and settings), and its unlocks are reported; --weather then answers \
        that chestd's weather requests from a server on loopback, as Open-Meteo would (nothing leaves the \
        machine), and without it that chestd's weather is offline.

        Exit status 0 when every page opened, 1 otherwise. The user's chest and chestd are never touched.

        example:
          $ chest simulate demo/quest/hill.quest demo/walk.txt
          09:00:34  point 35     walk: page 3 opened by set A
          …
          5 of 6 pages opened.
        """
    static let parameters: [Parameter] =
        [
            .positional(
                "PATH", arity: .oneOrMore, help: "a quest or message files, then the track", completion: .files()),
            .option(
                "--weather", value: "CONDITION[,TEMP]", help: "the weather during the replay, such as snowy,-2",
                completion: .words(WeatherCondition.allCases.map(\.rawValue))),
            .flag("--gpsd", help: "replay through gpsfake, gpsd and a private chestd"),
            .option(
                "--answer", value: "[NAME#]PAGE=TEXT", help: "answers that page's question during the replay",
                repeatable: true),
        ] + CourseOptions.parameters

    var messages: [String]
    var track: String
    var weather: Simulation.Weather?
    var gpsd: Bool
    var answers: [GivenAnswer] = []
    var course: CourseOptions

    init(_ values: ParsedValues) throws(UsageError) {
        let paths = values.positional("PATH")
        guard paths.count >= 2 else { throw UsageError("simulate needs a quest (or message files) and a track") }
        messages = Array(paths.dropLast())
        track = paths[paths.count - 1]
        weather = try values.value(
            "--weather", "--weather wants CONDITION[,TEMP], such as snowy,-2 (clear, cloudy, rainy, snowy, thundery)"
        ) {
            Simulation.Weather($0)
        }
        gpsd = values.flag("--gpsd")
        course = try CourseOptions(values)
        for given in values.values("--answer") {
            guard let answer = GivenAnswer(given) else {
                throw UsageError(
                    "--answer wants PAGE=TEXT or NAME#PAGE=TEXT (a page from 1 to \(Message.maximumPages)), such as --answer 2=Zytglogge, not \"\(given)\""
                )
            }
            answers.append(answer)
        }
        if gpsd, !answers.isEmpty {
            throw UsageError("--answer is for the replay in-process; --gpsd's private chestd takes no answers")
        }
    }

    func run(settings: Settings) throws {
        // The track is read once; only when it is no track is the first path looked at, for the order.
        let read = Result { try Self.readTrack(track) }
        if case .failure = read { try Self.checkOrder(track, messages) }
        let rehearsal = try Rehearsal(paths: messages, course: course)
        let points = try read.get()
        if gpsd { return try replayThroughGPSD(rehearsal, points, settings: settings) }
        // In-process, a sealed page would need its keys derived the way chestd does off its loop; not done here.
        if let sealed = rehearsal.items.first(where: { $0.file?.pages.contains { $0.sealed != nil } == true }) {
            throw ChestError(
                "\(sealed.name) has sealed pages (format \(sealed.file?.version ?? 3)): rehearse its quest, or the file with --gpsd"
            )
        }
        let (messages, answered) = try rehearsal.messages(settings: settings, answers: answers)
        let simulation = Simulation(messages: messages, track: points, weather: weather, timeZone: .current)
        print(Self.timeline(simulation, names: rehearsal, timeZone: .current, answered: answered))
        guard simulation.allOpened else {
            let total = simulation.messages.reduce(0) { $0 + $1.pages.count }
            throw ChestError("\(simulation.misses.count) of \(total) pages never opened")
        }
    }

    /// Called when the last path is no track: when the first is one, the two were given the wrong way round (issue
    /// 59: each line of the track was then reported as a quest's unknown field), and the order is said instead.
    static func checkOrder(_ track: String, _ messages: [String]) throws {
        guard let first = messages.first, Self.isTrack(first) else { return }
        let quests = (messages.dropFirst() + [track]).joined(separator: " ")
        throw ChestError(
            "\(first) is a track and \(track) is not: the track comes last, as in chest simulate \(quests) \(first)")
    }

    private static func isTrack(_ path: String) -> Bool {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return false }
        return (try? Track(data: data)) != nil
    }

    /// The track, the last path.
    static func readTrack(_ track: String) throws -> Track {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: track))
        } catch {
            throw ChestError("cannot read the track \(track): \(QuestFile.whyUnreadable(track))")
        }
        do {
            return try Track(data: data)
        } catch {
            throw ChestError("\(track): \(error)")
        }
    }

    static func timeline(_ simulation: Simulation, names: Rehearsal, timeZone: Zone, answered: Set<String> = [])
        -> String
    {
        let points = simulation.track.points
        let clock = { LockReason.clock($0, timeZone) }
        let name = { (id: MessageID) in names.name(of: id) ?? id.short }
        var lines = [
            "Simulated \(points.count) track points, \(clock(points[0].time)) to \(clock(points[points.count - 1].time)) "
                + "\(timeZone.secondsFromGMT() == 0 ? "UTC" : timeZone.identifier), through chestd's engine in-process; PINs are not entered\(answered.isEmpty ? "" : "; answers are given as --answer says")."
        ]
        lines += QuestDraft.orderLines(names.items.map(\.draft)).map { $0 + "." }
        for event in simulation.events {
            let place = event.coordinate.map { String(printf: " at %.5f, %.5f", $0.latitude, $0.longitude) } ?? ""
            let head = "\(clock(event.time))  point \(Output.pad(String(event.point), 5))  \(name(event.message)):"
            switch event.what {
            case let .latched(key)
            where key.kind == .time && answered.contains("\(event.message)/\(key.page)/\(key.set.rawValue)"):
                lines.append("\(head) answer lock of page \(key.page) set \(key.set.rawValue) answered (--answer)")
            case let .latched(key):
                lines.append(
                    "\(head) \(key.kind.rawValue) lock of page \(key.page) set \(key.set.rawValue) latched\(place)")
            case let .opened(page, set?):
                lines.append("\(head) page \(page) opened by set \(set.rawValue)")
            case let .opened(page, nil):
                lines.append("\(head) page \(page) open from the start")
            }
        }
        let total = simulation.messages.reduce(0) { $0 + $1.pages.count }
        if !simulation.misses.isEmpty {
            lines.append("Never opened:")
            for miss in simulation.misses {
                lines.append("  \(name(miss.message)) page \(miss.page):")
                for set in LockSetName.allCases {
                    for lock in miss.sets[set] ?? [] {
                        lines.append("    set \(set.rawValue) \(lock.kind.rawValue): \(lock.why)")
                    }
                }
            }
        }
        lines.append("\(total - simulation.misses.count) of \(total) pages opened.")
        return lines.joined(separator: "\n")
    }

    /// `--gpsd`: the unlocks of a private chestd fed by gpsfake.
    private func replayThroughGPSD(_ rehearsal: Rehearsal, _ points: Track, settings: Settings) throws {
        let outcome = try GPSDRehearsal(settings: settings, weather: weather).run(rehearsal, track: points)
        let name = { (id: MessageID) in rehearsal.name(of: id) ?? id.short }
        var lines = [
            "Replayed \(points.points.count) track points through gpsfake, gpsd and a private chestd (times by chestd's clock)."
        ]
        for opened in outcome.opened {
            lines.append(
                "\(LockReason.clock(opened.at, .current))  \(name(opened.id)): page \(opened.page) opened"
                    + (opened.set.map { " by set \($0.rawValue)" } ?? " (no lock)"))
        }
        let missed = outcome.reports.flatMap { report in report.pages.filter { !$0.open }.map { (report, $0) } }
        if !missed.isEmpty {
            lines.append("Never opened:")
            for (report, page) in missed {
                lines.append("  \(name(report.id)) page \(page.number):")
                for set in page.sets {
                    for lock in set.locks where !lock.holds {
                        let why = lock.reason.map { $0.text(timeZone: .current, now: Date()) } ?? "did not hold"
                        lines.append("    set \(set.set.rawValue) \(lock.type.rawValue): \(why)")
                    }
                }
            }
        }
        let total = outcome.reports.reduce(0) { $0 + $1.pages.count }
        lines.append("\(total - missed.count) of \(total) pages opened.")
        print(lines.joined(separator: "\n"))
        guard missed.isEmpty else { throw ChestError("\(missed.count) of \(total) pages never opened") }
    }
}
