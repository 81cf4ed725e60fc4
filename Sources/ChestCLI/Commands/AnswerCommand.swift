import ChestArguments
import ChestCore
import ChestIO

/// `chest answer ID TEXT [--page N]`
struct AnswerCommand: ChestCommand {
    static let name = "answer"
    static let abstract = "answer a page's question (its answer lock)"
    static let discussion = """
        Gives TEXT as the answer to the question of the message's pages with an answer lock (or one page's); \
        chest read shows each page's question. Case, letter width and spacing do not matter: both sides are \
        compared in one normal form, NFKC, case folded, runs of spaces made one \
        (docs/FORMAT.md "The normal form of an answer"); spaces inside an answer count. Answers count with the message's PINs: after 5 wrong \
        attempts, attempts wait 30 s, then 1 min, 5 min, 15 min and 1 h. An answer tried before, in any writing, \
        costs nothing. When the answer goes with a sealed place, it is kept and tried at each new place instead, \
        uncounted (a wrong answer and a wrong place look alike).

        example:
          $ chest answer 5b1e "ZEITGLOCKENTURM"
          answer accepted for page 2; it still needs its location lock
        """
    static let parameters: [Parameter] = [
        .messageID,
        .positional("TEXT", help: "the answer (quote it when it has spaces)"),
        .option("--page", value: "N", help: "answer only this page's question"),
    ]

    var id: String
    var text: String
    var page: Int?

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        text = values.positional("TEXT")[0]
        // An answer no lock can have is a mistake in the command, not a wrong attempt.
        guard !AnswerText.normalised(text).isEmpty else {
            throw UsageError("the answer is empty; write it, such as chest answer ID Zytglogge")
        }
        guard text.unicodeScalars.count <= AnswerText.maximumLength else {
            throw UsageError(
                "an answer is at most \(AnswerText.maximumLength) characters; this one has \(text.unicodeScalars.count)"
            )
        }
        if let control = AnswerText.control(in: text) {
            throw UsageError(
                "the answer holds the control character \(control), which no answer has; type the answer as plain text (not counted as an attempt)"
            )
        }
        page = try values.value("--page", "--page wants a page number from 1 to \(Message.maximumPages)") { text in
            Int(text).flatMap { (1...Message.maximumPages).contains($0) ? $0 : nil }
        }
    }

    func run(settings: Settings) throws {
        let outcome = try CLI.client(settings).call(
            ControlRequest.answer(id: id, text: text, page: page),
            expecting: PINOutcome.self, timeout: PinCommand.answerTimeout)
        print(
            PinCommand.sentence(
                outcome, noun: "answer",
                report: {
                    try? CLI.client(settings).call(
                        ControlRequest.read(id: id),
                        expecting: ReadReport.self)
                }))
    }
}
