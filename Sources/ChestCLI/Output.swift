import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// How `chest` prints reports for people.
enum Output {
    /// `senders`: the note on each item's sender (`SenderCheck`), in the same order; none for your own.
    static func list(_ items: [ListItem], saved: Bool, senders: [SenderCheck.Note?] = []) -> String {
        guard !items.isEmpty else {
            return saved ? "the saved chest is empty" : "the chest is empty; import a message with `chest import FILE`"
        }
        var lines = ["ID        STATE    PAGES  FROM              KEY                  TITLE"]
        for (index, item) in items.enumerated() {
            let pages = "\(item.openPages.count)/\(item.pages)"
            let from = item.sentByYou ? "you" : TerminalText.escaped(item.from)
            let note = index < senders.count ? senders[index] : nil
            let key = note.map { $0.fingerprint + ($0.isChanged ? "!" : "") } ?? "-"
            lines.append(
                "\(item.id.short)  \(pad(item.state.rawValue, 7))  \(pad(pages, 5))  \(pad(String(from.prefix(16)), 16))  "
                    + "\(pad(key, 19))  \(TerminalText.escaped(item.title))"
                    + (note?.flagWords.map { "  (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    static func read(
        _ report: ReadReport, timeZone: Zone = .current, sender: SenderCheck.Note? = nil, now: Date = Date()
    ) -> String {
        var lines = [
            "\(TerminalText.escaped(report.title)) — from \(TerminalText.escaped(report.from))"
                + (sender.map { " (key \($0.fingerprint))" } ?? ""),
            "\(report.id) · \(report.chest.rawValue) chest · \(report.state)",
        ]
        if let warning = sender?.warnings {
            lines.append("warning: \(warning)" + (sender?.advice(report.id) ?? ""))
        }
        if let own = report.messageID {
            lines.append(
                "filed as \(report.id.short): its own ID \(own.short) was another key's message's in the chest when it came"
            )
        }
        if report.sentByYou { lines.append("you sent this message: its locks stay shut for you") }
        if report.huntStarts != nil || report.huntEnds != nil {
            let schedule = HuntSchedule(starts: report.huntStarts, ends: report.huntEnds)
            lines.append(huntWindow(schedule, now: now, timeZone: timeZone))
        }
        if report.awaitsStartKey == true {
            lines.append(
                "the hunt has not started: its pages open only once the organiser publishes the start key, whatever the clock says"
            )
        }
        if report.requiresHardware {
            lines.append(
                "needs a hardware GPS receiver (the organiser's requirement); the current source: \(report.receiver ?? "unknown")"
            )
        }
        for page in report.pages {
            lines.append("")
            if page.open {
                let how = page.openedBy.map { " by set \($0.rawValue)" } ?? ""
                var when = page.openedAt.map { " at " + LockReason.format($0, timeZone) } ?? ""
                if let reached = page.reachedAt, let opened = page.openedAt {
                    when += " (place reached " + Wording.reached(reached, before: opened, in: timeZone) + ")"
                }
                lines.append("Page \(page.number) — open\(page.openedBy == nil ? "" : how + when)")
                lines += questionLines(page)
                lines += TerminalText.escaped(page.text ?? "", keepingNewlines: true)
                    .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
                lines += attachmentLines(page.attachments ?? []).map { "  " + TerminalText.escaped($0) }
            } else {
                lines.append("Page \(page.number) — locked · \(Self.protection(page.protection))")
                lines += questionLines(page)
                for (index, set) in page.sets.enumerated() {
                    lines.append("  \(index == 0 ? "" : "or ")set \(set.set.rawValue):")
                    for lock in set.locks {
                        let mark = lock.holds ? "✓" : "✗"
                        lines.append("    \(mark) " + lockLine(lock, timeZone: timeZone))
                    }
                }
            }
            lines += hintLines(page, id: report.id, timeZone: timeZone)
        }
        return lines.joined(separator: "\n")
    }

    /// "a page of the hunt: it opens from 14:00 until 18:00; the hunt starts in 12 min" (docs/HUNTS.md "The
    /// hunt's start and end").
    static func huntWindow(_ schedule: HuntSchedule, now: Date, timeZone: Zone) -> String {
        var window = [
            schedule.starts.map { "from " + LockReason.format($0, timeZone) },
            schedule.ends.map { "until " + LockReason.format($0, timeZone) },
        ].compactMap { $0 }.joined(separator: " ")
        if let countdown = schedule.countdown(at: now) { window += "; " + countdown }
        return "a page of the hunt opens only while it is on: " + window
    }

    /// A page's question and its points when they are not the default: "  Q: What is …?", "  worth 5 points".
    static func questionLines(_ page: PageReport) -> [String] {
        var lines =
            page.question.map { question in
                TerminalText.escaped(question, keepingNewlines: true).split(
                    separator: "\n", omittingEmptySubsequences: false
                )
                .enumerated().map { ($0.offset == 0 ? "  Q: " : "     ") + $0.element }
            } ?? []
        if let points = page.points, points != 1 { lines.append("  worth \(points) points") }
        return lines
    }

    /// A lock as `read` words it: its type, the organiser's name for its place, what it asks and why it does not
    /// hold yet. A chain says its page once: the reason names it by its message's title.
    static func lockLine(_ lock: LockReport, timeZone: Zone) -> String {
        let reason = lock.reason.map { $0.text(timeZone: timeZone, now: Date()) }
        if lock.type == .after { return reason ?? lock.condition }
        let label = lock.target?.label.map { " \u{201C}\(TerminalText.escaped($0))\u{201D}," } ?? ""
        return "\(lock.type.rawValue)\(label) \(lock.condition)" + (reason.map { ": " + $0 } ?? "")
    }

    /// One line a file a page carries: "attached: oak.jpg · image/jpeg · 120.4 KB"; names are the sender's, so
    /// the caller escapes them for a terminal.
    static func attachmentLines(_ attachments: [Attachment]) -> [String] {
        attachments.map { "attached: \($0.name) · \($0.type) · \(Attachment.sizeText($0.size))" }
    }

    /// "47.376900 N  8.541700 E".
    static func position(_ latitude: Double, _ longitude: Double) -> String {
        String(printf: "%.6f ", abs(latitude)) + (latitude >= 0 ? "N" : "S") + String(printf: "  %.6f ", abs(longitude))
            + (longitude >= 0 ? "E" : "W")
    }

    /// What a page's protection means, in a few words.
    static func protection(_ protection: Protection) -> String {
        switch protection {
        case .sealed: "sealed: the file does not give it away"
        case .recoverable: "sealed (format 2: the place can be recovered from the file)"
        case .guarded: "guarded only: whoever has the file can decode it"
        case .unsealed: "unsealed (format 1)"
        }
    }

    /// Colour for people: standard output is a terminal and NO_COLOR is not set.
    static var colour: Bool { isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// Every byte of standard input, to its end (`chest compose --text -`); what a read error leaves unread is
    /// dropped. The one place the command line reads standard input as a whole.
    static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while let count = try? FileDescriptor.standardInput.read(into: &buffer), count > 0 {
            bytes += buffer[..<count]
        }
        return bytes
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `chest read --json`: the report with each reason as the sentence a person reads.
    struct ReadJSON: Encodable {
        var id, title, from, chest, state: String
        var sentByYou: Bool
        var pages: [PageJSON]
        /// A message of the hunt with a start or an end: when its pages may open (docs/HUNTS.md).
        var huntStarts: Date?
        var huntEnds: Date?
        /// A message of the hunt waiting for its start key (docs/HUNTS.md "The start key"); absent otherwise.
        var awaitsStartKey: Bool?
        /// The known sender whose name `from` reads as, under another key (docs/SECURITY.md "Known senders"); absent
        /// when it is no lookalike.
        var lookalikeOf: String?
        /// The ID sealed in the file when the chest files the message under another, and the chest IDs of the other
        /// keys' messages with that ID (docs/SECURITY.md "Round five (issue 61)"); each absent when there is none.
        var messageID: String?
        var sameID: [String]?

        struct PageJSON: Encodable {
            var number: Int
            var open: Bool
            var text: String?
            var openedBy: String?
            var openedAt: Date?
            /// When the page's place was reached; absent when no location lock opened it.
            var reachedAt: Date?
            var protection: String
            var sets: [SetJSON]
            /// An open page's files; absent when it has none.
            var attachments: [Attachment]?
            /// The page's hints (docs/FORMAT.md "Hints"); absent when it has none.
            var hints: [HintReport]?
            /// The page's question, open or not; absent when it has none (docs/FORMAT.md "Questions, answer locks and points").
            var question: String?
            /// What the hunt's board credits for the page's proven opening.
            var points: Int
        }

        struct SetJSON: Encodable {
            var set: String
            var locks: [LockJSON]
        }

        struct LockJSON: Encodable {
            var type, condition: String
            var holds: Bool
            var reason: String?
            /// What the lock asks for, as values, when the file shows it openly.
            var target: LockTarget?
        }

        init(_ report: ReadReport, lookalikeOf: String? = nil) {
            self.lookalikeOf = lookalikeOf
            id = report.id.rawValue
            title = report.title
            from = report.from
            chest = report.chest.rawValue
            state = report.state.rawValue
            sentByYou = report.sentByYou
            (huntStarts, huntEnds) = (report.huntStarts, report.huntEnds)
            awaitsStartKey = report.awaitsStartKey
            messageID = report.messageID?.rawValue
            sameID = report.sameID?.map(\.rawValue)
            pages = report.pages.map { page in
                PageJSON(
                    number: page.number, open: page.open, text: page.text, openedBy: page.openedBy?.rawValue,
                    openedAt: page.openedAt, reachedAt: page.reachedAt, protection: page.protection.rawValue,
                    sets: page.sets.map { set in
                        SetJSON(
                            set: set.set.rawValue,
                            locks: set.locks.map {
                                LockJSON(
                                    type: $0.type.rawValue, condition: $0.condition, holds: $0.holds,
                                    reason: $0.reason?.text(timeZone: .current, now: Date()), target: $0.target)
                            })
                    }, attachments: page.attachments.flatMap { $0.isEmpty ? nil : $0 }, hints: page.hints,
                    question: page.question,
                    points: page.points ?? 1)
            }
        }
    }
}
