import ChestCore
import Foundation

/// The board's part of the hunt's start and end and of the organiser's words (docs/HUNTS.md "The hunt's start and
/// end", "Word to all teams"), apart from the rest of the feed: the rule itself is `HuntSchedule`'s.
extension BoardFeed {
    /// What the board does with an envelope the gate accepted.
    enum WindowVerdict {
        /// The organiser's schedule or word: taken in here.
        case taken
        /// A receipt received after the end: refused, not credited.
        case afterEnd
        /// Anything else: recorded on the board as always.
        case record
    }

    /// Takes the organiser's schedule (the gate accepts only a newer one, or the one in force again) and words, and
    /// judges a receipt by when the board received it (`HuntSchedule.admitsCredit`).
    mutating func window(_ envelope: HuntEnvelope, at now: Date) -> WindowVerdict {
        switch envelope.kind {
        case .schedule:
            if let schedule = envelope.schedule { self.schedule = schedule }
            return .taken
        case .said:
            guard let said = envelope.said, !words.contains(where: { $0.said.id == envelope.id }) else { return .taken }
            words.append((now, HuntWord.Said(id: envelope.id, text: said.text, at: envelope.sent)))
            if words.count > 50 { words.removeFirst(words.count - 50) }
            return .taken
        case .receipt where !schedule.admitsCredit(receivedAt: now):
            return .afterEnd
        default:
            return .record
        }
    }

    /// The board's headline about the window at `now`: "the hunt starts in 12 min", "final ranking: the hunt
    /// ended at 16:00", or nil while it is on with no end near.
    func windowLine(at now: Date, timeZone: TimeZone = .current) -> String? {
        if let ends = schedule.ends, schedule.hasEnded(at: now) {
            return "final ranking: the hunt ended at \(LockReason.format(ends, timeZone)); nothing received since is credited"
        }
        return schedule.countdown(at: now)
    }

    /// The "latest" list of the terminal board: credited pages, refusals and the organiser's words, oldest first.
    func latestLines(room: Int) -> [String] {
        let events = latest.compactMap { entry in entry.event.text.map { (entry.at, "\(LockReason.clock(entry.at, .current)) \($0)") } }
        let said = words.map { ($0.at, "\(LockReason.clock($0.at, .current)) \u{1B}[1;35mthe organiser says\u{1B}[0m: \(TerminalText.escaped($0.said.text))") }
        return (events + said).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.suffix(room).map(\.element.1)
    }

    /// `board --json`'s lines for the organiser's words not printed yet: `{"event":"said","text","at","receivedAt"}`.
    func newWordLines(printed: inout Set<UInt64>) -> [String] {
        let new = words.filter { !printed.contains($0.said.id) }
        printed.formUnion(new.map(\.said.id))
        return new.map { word in
            String(decoding: ChestJSON.line(SaidLine(text: word.said.text, at: word.said.at, receivedAt: word.at)), as: UTF8.self)
                .trimmingCharacters(in: .newlines)
        }
    }
}

/// One organiser's word as `board --json` writes it.
private struct SaidLine: Encodable {
    var event = "said"
    var text: String
    var at: Date
    var receivedAt: Date
}
