import ChestArguments
import ChestCore
import ChestIO

/// `chest hint ID [--page N]` (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints")
struct HintCommand: ChestCommand {
    static let name = "hint"
    static let abstract = "open a page's next hint, or ask the hunt's organiser for it"
    static let discussion = """
        Opens the first hint still closed of the page (by default the first page with one, your next goal first) \
        and prints it. A hint whose key is in the message opens at once, unless it opens by itself after a delay: \
        then it says when. In a hunt, a hint only the organiser holds (or one whose delay is not over) is asked of \
        the organiser's board, which may charge points for it; the request waits in the outbox while the broker \
        is away, and the hint opens when the board answers (chest watch shows it as event hint). An opened hint is \
        kept with the message and shown by chest read and chest nav.

        example:
          $ chest hint 7f3a
          chest: hint 1 of page 1 opens by itself at 2026-11-26T14:20:00Z, in 9 min
        """
    static let parameters: [Parameter] = [
        .messageID,
        .option("--page", value: "N", help: "ask for this page's next hint"),
        .json,
    ]

    var id: String
    var page: Int?
    var json: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        json = values.flag("--json")
        page = try values.value("--page", "--page wants a page number from 1 to \(Message.maximumPages)") { text in
            Int(text).flatMap { (1...Message.maximumPages).contains($0) ? $0 : nil }
        }
    }

    func run(settings: Settings) throws {
        let answer = try CLI.client(settings).call(ControlRequest.hint(id: id, page: page), expecting: HintAnswer.self)
        print(json ? CLI.jsonText(answer) : Self.sentence(answer))
    }

    /// What the reader is told.
    static func sentence(_ answer: HintAnswer) -> String {
        let which = "hint \(answer.hint) of page \(answer.page) of \"\(TerminalText.escaped(answer.title))\""
        switch answer.outcome {
        case .opened:
            return "\(which):\n"
                + TerminalText.escaped(answer.text ?? "", keepingNewlines: true)
                .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        case .asked:
            let cost = answer.cost.map { $0 > 0 ? " (it costs \($0) point\($0 == 1 ? "" : "s"))" : "" } ?? ""
            let sent =
                answer.connected == true
                ? "the request is sent; the hint opens when the board answers (chest watch shows it)"
                : "the broker is away: the request waits in the outbox; it is sent when the broker is back"
            return "asked the organiser for \(which)\(cost); \(sent)"
        }
    }
}
