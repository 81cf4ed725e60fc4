import ChestArguments
import ChestCore
import ChestIO

/// `chest undelete [ID]`
struct UndeleteCommand: MessageCommand {
    static let name = "undelete"
    static let abstract = "bring a deleted message back"
    static let discussion = """
        Brings the message deleted last (or the one ID names) back into the regular chest with its state: open \
        pages, latched locks and PIN attempts. chestd keeps the last \(DeletedMessage.limit) deleted messages \
        for \(Int(DeletedMessage.keptFor / 3600)) h, across its restarts.
        """
    static func request(for id: String) -> ControlRequest { .undelete(id: id) }
    static let done = "undeleted"
    static var parameters: [Parameter] {
        [.positional("ID", arity: .optional, help: "a deleted message's ID or prefix (default: the last deleted)")]
    }

    var id: String

    init(id: String) { self.id = id }

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID").first ?? ""
    }
}
