import ChestArguments
import ChestCore
import ChestIO

/// `chest delete ID`
struct DeleteCommand: ChestCommand {
    static let name = "delete"
    static let abstract = "remove a message for good"
    static let discussion = "Removes a message and its state for good."
    static let parameters: [Parameter] = [.messageID]

    var id: String

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
    }

    func run(settings: Settings) throws {
        let result = try CLI.client(settings).call(ControlRequest(op: .delete, id: id), expecting: ImportResult.self)
        print("deleted \(result.id) \"\(result.title)\"")
    }
}
