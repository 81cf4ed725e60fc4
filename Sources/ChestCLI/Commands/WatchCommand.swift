import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest watch`: follows chestd's events, like `journalctl -f`, waiting for chestd across its restarts.
struct WatchCommand: ChestCommand {
    static let name = "watch"
    static let abstract = "follow events as they happen"
    static let discussion = """
        Prints what happens as it happens, like journalctl -f: pages that open (with their text and the files \
        they carry), hints that open, messages taken in or refused (with the reason), gpsd connected or gone, the \
        fix found or lost (and why: gpsd gone, the receiver gone, a frozen feed, no sky), the clock's trust, \
        weather readings, saves and deletes, and a hunt organiser's words. A line per fix only with --fixes. \
        --events picks events by name: \(ChestEvent.names.joined(separator: ", ")). IDs are the shortest unique \
        prefix (at least 8 characters); times are local (--utc for UTC); colour only on a terminal, never with \
        NO_COLOR. --count stops after N events shown, --timeout after S seconds (exit status 0). When chestd \
        stops, watch waits for it to come back and says so; --no-reconnect exits with status 1 instead. An unlock \
        no watcher or notifier has received yet is sent to the next watcher that connects.

        With --json, every event with every field, one JSON object a line, each with event and at (ISO 8601: the \
        event's own time when it has one, else when chestd told it).

        examples:
          chest watch --count 1 --events unlocked     wait for the next page to open
          chest watch --json                          every event and field, one JSON object a line
        """
    static let parameters: [Parameter] = [
        .json,
        .option(
            "--events", value: "LIST", help: "only these events, comma-separated",
            completion: .words(ChestEvent.names)),
        .flag("--fixes", help: "also a line per GPS fix"),
        .option("--count", value: "N", help: "stop after N events shown"),
        .option("--timeout", value: "S", help: "stop after S seconds"),
        .flag("--utc", help: "times in UTC rather than local time"),
        .flag("--no-reconnect", help: "exit when chestd stops instead of waiting for it"),
    ]

    var json: Bool
    /// The event names shown; nil shows the default set (everything but fixes, unless `--fixes`).
    var events: Set<String>?
    var fixes: Bool
    var count: Int?
    var timeout: Double?
    var utc: Bool
    var reconnect: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        json = values.flag("--json")
        fixes = values.flag("--fixes")
        utc = values.flag("--utc")
        reconnect = !values.flag("--no-reconnect")
        count = try values.value("--count", "--count wants a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        timeout = try values.value("--timeout", "--timeout wants seconds, such as 30") {
            Double($0).flatMap { $0 > 0 ? $0 : nil }
        }
        if let list = values.value("--events") {
            var names: Set<String> = []
            for name in list.split(separator: ",").map({ $0.trimmingSpaces() }) where !name.isEmpty {
                guard ChestEvent.names.contains(name) else {
                    let guess = Suggestion.nearest(to: name, in: ChestEvent.names).map { "did you mean \($0)? " } ?? ""
                    throw UsageError(
                        "--events: unknown event \"\(name)\"; \(guess)the events are \(ChestEvent.names.joined(separator: ", "))"
                    )
                }
                names.insert(name)
            }
            guard !names.isEmpty else { throw UsageError("--events wants a list such as unlocked,rejected") }
            events = names
        }
    }

    /// Whether an event of this name is shown.
    func shows(_ name: String) -> Bool {
        if let events { return events.contains(name) }
        return name != "fix" || fixes || json
    }

    func run(settings: Settings) throws {
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        var printer = EventPrinter(timeZone: utc ? Zone(identifier: "UTC")! : .current, colour: !json && Output.colour)
        var shown = 0
        var client = try subscribe(settings, printer: &printer)
        while count.map({ shown < $0 }) ?? true {
            let left = deadline.map { $0 - MonotonicClock.now() }
            if let left, left <= 0 { return }
            let line: Data?
            do {
                line = try client.nextLine(timeout: left)
            } catch .timedOut {
                return
            } catch {
                line = nil
            }
            guard let line else {
                guard reconnect else { throw ChestError("chestd stopped") }
                printError("chest: chestd stopped; waiting for it to come back (Ctrl-C to give up)")
                guard let again = waitForDaemon(settings, until: deadline, printer: &printer) else { return }
                printError("chest: chestd is back; watching again")
                client = again
                continue
            }
            // One decode a line; an event this chest does not know (a newer chestd's) still goes out as JSON.
            let event = try? ChestJSON.decoder().decode(ChestEvent.self, from: line)
            let name = event?.name ?? (try? JSONDecoder().decode(EventName.self, from: line))?.event ?? ""
            guard shows(name) else { continue }
            if json {
                if case let .ingested(id, _) = event, let known = senderNote(id, settings)?.note.lookalikeOf {
                    print(Self.adding(lookalikeOf: known, to: line))
                } else {
                    print(String(decoding: line, as: UTF8.self))
                }
            } else if let event {
                print(printer.text(event, receivedAt: Date()))
                if case let .ingested(id, _) = event, let from = senderLine(id, settings) { print(from) }
                if case let .ingested(id, _) = event { questionLines(id, settings, ready: false).forEach { print($0) } }
                if case let .unlocked(unlock) = event {
                    questionLines(unlock.id, settings, ready: true).forEach { print($0) }
                }
            } else {
                continue
            }
            fflush(nil)
            shown += 1
        }
    }

    /// Under a message that came in, when its sender's name is known with another key: the flag (docs/SECURITY.md
    /// "Known senders"); nil otherwise (a name met for the first time is recorded), or when chestd cannot say.
    private func senderLine(_ id: MessageID, _ settings: Settings) -> String? {
        guard let (note, id) = senderNote(id, settings), let warning = note.warnings else { return nil }
        let text = "warning: \(warning)" + note.advice(id)
        let painted = Output.colour ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text
        return "          " + painted
    }

    /// How a message that came in stands against the known senders (a name met for the first time is recorded); nil
    /// for your own messages, unsealed ones, or when chestd cannot say.
    private func senderNote(_ id: MessageID, _ settings: Settings) -> (note: SenderCheck.Note, id: MessageID)? {
        guard
            let report = try? CLI.client(settings).call(
                ControlRequest.read(id: id.rawValue), expecting: ReadReport.self)
        else {
            return nil
        }
        var senders = SenderCheck(settings: settings)
        let note = senders.note(
            from: report.from, key: report.senderKey, sentByYou: report.sentByYou, sameID: report.sameID)
        senders.save()
        return note.map { ($0, report.id) }
    }

    /// An `ingested` line as chestd wrote it, with `lookalikeOf` added (chestd does not know the user's senders):
    /// the rest of the line is passed on byte for byte.
    static func adding(lookalikeOf known: String, to line: Data) -> String {
        let text = String(decoding: line, as: UTF8.self).trimmed()
        guard text.hasSuffix("}"), let name = try? JSONEncoder().encode(known) else { return text }
        return String(text.dropLast()) + #","lookalikeOf":"# + String(decoding: name, as: UTF8.self) + "}"
    }

    /// The questions of a message's locked pages (`ready`: only those whose answer is all they still wait for), as
    /// "page 2 asks: …  (chest answer ID TEXT)"; nothing when chestd cannot say.
    private func questionLines(_ id: MessageID, _ settings: Settings, ready: Bool) -> [String] {
        guard
            let report = try? CLI.client(settings).call(
                ControlRequest.read(id: id.rawValue), expecting: ReadReport.self),
            !report.sentByYou
        else { return [] }
        return report.pages.compactMap { page in
            guard !page.open, let question = page.question else { return nil }
            let answerable = page.sets.contains { set in
                set.locks.contains { $0.type == .answer && !$0.holds }
                    && set.locks.allSatisfy { $0.holds || $0.type == .answer }
            }
            guard answerable || !ready else { return nil }
            let asks = question.split(whereSeparator: \.isNewline).joined(separator: " ")
            return "          page \(page.number) asks: \(TerminalText.escaped(asks))"
                + (answerable ? "  (chest answer \(id.short) TEXT)" : "")
        }
    }

    /// Connects, asks for events and learns the IDs already in the chest, so that short IDs stay unique.
    private func subscribe(_ settings: Settings, printer: inout EventPrinter) throws -> ControlClient {
        if !json {
            for saved in [false, true] {
                let items = try CLI.client(settings).call(ControlRequest.list(saved: saved), expecting: [ListItem].self)
                printer.shortIDs.insert(items.map(\.id))
            }
        }
        let client = try CLI.client(settings)
        try client.send(ControlRequest.watch)
        guard let first = try client.nextLine(timeout: 10) else { throw ControlClientError.connectionClosed }
        _ = try ControlClient.decode(first, as: Empty.self)
        return client
    }

    /// Polls for chestd twice a second until it answers again, or until the deadline.
    private func waitForDaemon(_ settings: Settings, until deadline: Double?, printer: inout EventPrinter)
        -> ControlClient?
    {
        while deadline.map({ MonotonicClock.now() < $0 }) ?? true {
            if let client = try? subscribe(settings, printer: &printer) { return client }
            usleep(500_000)
        }
        return nil
    }
}

/// Only the name of an event line, for events this chest cannot read whole.
private struct EventName: Decodable {
    var event: String
}
