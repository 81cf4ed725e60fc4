import ChestArguments
import ChestCore
import ChestIO

/// `chest hunt ask TEXT`: a team's question to the organiser (docs/HUNTS.md "A team's question, a word to one team").
struct HuntAskCommand: ChestCommand {
    static let name = "ask"
    static let abstract = "ask the hunt's organiser a question: their board lists it with your team and the time"
    static let discussion = """
        Sends TEXT (1 to 500 characters) to the organiser's board, signed with your team's key by chestd, through \
        its outbox: while the broker is away it waits there, and goes when the broker is back. The board lists \
        the question with your team and when it came (chest board, the board in a browser, /board.json); the \
        organiser answers your team alone with chest hunt say --team, which chest watch, chest nav and a desktop \
        notification show. A team that asks too fast is refused by the board as for any of its messages.

        example:
          $ chest hunt ask "Is the bridge on the map the old one or the new one?"
          chest: the question is sent to the organiser's board
        """
    static let parameters: [Parameter] = [
        .positional("TEXT", help: "the question")
    ]

    var text: String

    init(_ values: ParsedValues) throws(UsageError) {
        text = values.positional("TEXT")[0]
        if let problem = HuntQuestion.problem(text) { throw UsageError(problem) }
    }

    func run(settings: Settings) throws {
        let notes = try CLI.client(settings).call(ControlRequest.ask(text: text), expecting: [String].self)
        for note in notes { print(note) }
    }
}
