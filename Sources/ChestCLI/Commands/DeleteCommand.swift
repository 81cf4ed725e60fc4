import ChestArguments
import ChestCore
import ChestIO
import Glibc

/// `chest delete ID... [--yes]`: asks first on a terminal; the messages and their state wait a while for `undelete`.
struct DeleteCommand: MessageCommand {
    static let name = "delete"
    static let abstract = "take messages out of the chest (undelete brings them back)"
    static let discussion = """
        Takes one or more messages out of the chest. Every ID is checked before any is deleted. On a terminal it \
        asks first, once for all; --yes does not. The last \(DeletedMessage.limit) deleted messages are kept with \
        their state (open pages, PIN attempts) in the chest's deleted/ for \(Int(DeletedMessage.keptFor / 3600)) h, \
        across restarts of chestd: `chest undelete` brings one back.
        """
    static func request(for id: String) -> ControlRequest { .delete(id: id) }
    static let done = "deleted"
    static var parameters: [Parameter] {
        [
            .positional(
                "ID", arity: Arity(1, .max), help: "message IDs, or unique prefixes of them",
                completion: .shellCommand(Chest.listIDs)),
            .flag("--yes", help: "do not ask, even on a terminal"),
        ]
    }

    var ids: [String]
    var yes = false
    var id: String { ids[0] }

    init(id: String) { ids = [id] }

    init(_ values: ParsedValues) throws(UsageError) {
        ids = values.positional("ID")
        yes = values.flag("--yes")
    }

    func run(settings: Settings) throws {
        // Every ID must name one message before anything is deleted: a typo deletes nothing.
        let reports = try ids.map {
            try CLI.client(settings).call(ControlRequest.read(id: $0), expecting: ReadReport.self)
        }
        if !yes, isatty(0) == 1 {
            let what = reports.map { "\($0.id.short) \"\(TerminalText.escaped($0.title))\" (\($0.state))" }.joined(
                separator: ", ")
            print("delete \(what)? [y/N] ", terminator: "")
            fflush(nil)
            guard let answer = readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
                throw ChestError("nothing deleted")
            }
        }
        var done = Set<MessageID>()
        for report in reports where done.insert(report.id).inserted { try request(settings, id: report.id.rawValue) }
    }
}
