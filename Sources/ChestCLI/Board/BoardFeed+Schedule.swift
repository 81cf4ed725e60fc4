import ChestCore
import ChestIO
import FoundationEssentials

/// How the board shows the hunt's start and end and the organiser's words (docs/HUNTS.md "The hunt's start and
/// end", "Word to all teams"); `BoardCore` decides, the rule itself is `HuntSchedule`'s.
extension BoardFeed {
    /// Each page's question from the organiser's file (`compose --question`), shown with the page's openings.
    var questions: [PageLink: String] {
        var questions: [PageLink: String] = [:]
        for (id, message) in core.hunt.messages ?? [:] {
            for (index, page) in message.pages.enumerated() {
                if let question = page.question { questions[PageLink(message: id, page: index + 1)] = question }
            }
        }
        return questions
    }

    /// The board's headline about the window at `now`: "the hunt starts in 12 min", "final ranking: the hunt
    /// ended at 16:00", or nil while it is on with no end near.
    func windowLine(at now: Date, timeZone: Zone = .current) -> String? {
        let schedule = core.schedule
        if let ends = schedule.ends, schedule.hasEnded(at: now) {
            return
                "final ranking: the hunt ended at \(LockReason.format(ends, timeZone)); nothing received since is credited"
        }
        return schedule.countdown(at: now)
    }

    /// The "latest" list of the terminal board: credited pages, refusals and the organiser's words, oldest first.
    func latestLines(room: Int) -> [String] {
        let questions = questions
        let events = core.events.compactMap { entry in
            entry.event.text.map { text in
                var line = "\(LockReason.clock(entry.at, .current)) \(text)"
                if case let .unlock(_, message, _, page, _, _, _, _, _) = entry.event,
                    let question = questions[PageLink(message: message, page: page)]
                {
                    line += " \u{2014} \(TerminalText.escaped(question))"
                }
                return (entry.at, line)
            }
        }
        let said = core.words.map {
            (
                $0.at,
                "\(LockReason.clock($0.at, .current)) \u{1B}[1;35mthe organiser says\u{1B}[0m: \(TerminalText.escaped($0.said.text))"
            )
        }
        return (events + said).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.suffix(
            room
        ).map(\.element.1)
    }

    /// `board --json`'s lines for the organiser's words not printed yet: `{"event":"said","text","at","receivedAt"}`.
    func newWordLines(printed: inout Set<UInt64>) -> [String] {
        let new = core.words.filter { !printed.contains($0.said.id) }
        printed.formUnion(new.map(\.said.id))
        return new.map { word in
            String(
                decoding: ChestJSON.line(SaidLine(text: word.said.text, at: word.said.at, receivedAt: word.at)),
                as: UTF8.self
            )
            .trimmingNewlines()
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
