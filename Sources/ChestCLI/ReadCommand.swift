import ChestArguments
import ChestCore
import ChestIO

/// `chest read ID [--json]`
struct ReadCommand: ChestCommand {
    static let name = "read"
    static let abstract = "open pages, and why the others are still locked"
    static let discussion = "The text of the open pages; for each locked page, every lock and what it still waits for."
    static let parameters: [Parameter] = [.messageID, .json]

    var id: String
    var json: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        json = values.flag("--json")
    }

    func run(settings: Settings) throws {
        let report = try CLI.client(settings).call(ControlRequest.read(id: id), expecting: ReadReport.self)
        var senders = SenderCheck(settings: settings)
        let note = senders.note(from: report.from, key: report.senderKey, sentByYou: report.sentByYou)
        senders.save()
        print(json ? CLI.jsonText(Output.ReadJSON(report)) : Output.read(report, sender: note))
    }
}
