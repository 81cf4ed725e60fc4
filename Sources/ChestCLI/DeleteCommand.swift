import ChestArguments
import ChestCore
import ChestIO
import Glibc

/// `chest delete ID [--yes]`: asks first on a terminal; the message and its state wait a while for `undelete`.
struct DeleteCommand: MessageCommand {
    static let name = "delete"
    static let abstract = "take a message out of the chest (undelete brings it back)"
    static let discussion = """
        Takes a message out of the chest. On a terminal it asks first; --yes does not. The last \
        \(DeletedMessage.limit) deleted messages are kept with their state (open pages, PIN attempts) for \
        \(Int(DeletedMessage.keptFor / 3600)) h: `chest undelete` brings one back.
        """
    static func request(for id: String) -> ControlRequest { .delete(id: id) }
    static let done = "deleted"
    static var parameters: [Parameter] { [.messageID, .flag("--yes", help: "do not ask, even on a terminal")] }

    var id: String
    var yes = false

    init(id: String) { self.id = id }

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        yes = values.flag("--yes")
    }

    func run(settings: Settings) throws {
        if !yes, isatty(0) == 1 {
            let report = try CLI.client(settings).call(ControlRequest.read(id: id), expecting: ReadReport.self)
            print("delete \(report.id.short) \"\(report.title)\" (\(report.state))? [y/N] ", terminator: "")
            fflush(nil)
            guard let answer = readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
                throw ChestError("nothing deleted")
            }
            return try request(settings, id: report.id.rawValue)
        }
        try request(settings)
    }
}
