import ChestArguments
import ChestCore
import ChestIO

/// `chest save ID`
struct SaveCommand: ChestCommand {
    static let name = "save"
    static let abstract = "move a message to the saved chest (at most \(ChestKind.savedLimit))"
    static let discussion = "Moves a message to the saved chest, which holds at most \(ChestKind.savedLimit)."
    static let parameters: [Parameter] = [.messageID]

    var id: String

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
    }

    func run(settings: Settings) throws {
        let result = try CLI.client(settings).call(ControlRequest(op: .save, id: id), expecting: ImportResult.self)
        print("saved \(result.id) \"\(result.title)\"")
    }
}
