import ChestArguments
import ChestCore
import ChestIO

/// `chest read ID [--json] [--save DIR]`
struct ReadCommand: ChestCommand {
    static let name = "read"
    static let abstract = "open pages, and why the others are still locked"
    static let discussion = """
        The text of the open pages and the files they carry (name, type, size); for each locked page, every \
        lock and what it still waits for. --save DIR writes the open pages' files into DIR (made if missing) \
        under their own names, never over a file that is there: a name already taken gets -2, -3… before its \
        extension. Names are cleaned first: no /, no leading dots, no control characters.
        """
    static let parameters: [Parameter] = [
        .messageID, .json,
        .option("--save", value: "DIR", help: "write the open pages' attachments into DIR", completion: .directories),
    ]

    var id: String
    var json: Bool
    var save: String?

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        json = values.flag("--json")
        save = values.value("--save")
        if save?.isEmpty == true { throw UsageError("--save wants a directory, such as --save .") }
    }

    func run(settings: Settings) throws {
        let report = try CLI.client(settings).call(ControlRequest.read(id: id), expecting: ReadReport.self)
        var senders = SenderCheck(settings: settings)
        let note = senders.note(from: report.from, key: report.senderKey, sentByYou: report.sentByYou)
        senders.save()
        print(json ? CLI.jsonText(Output.ReadJSON(report, lookalikeOf: note?.lookalikeOf)) : Output.read(report, sender: note))
        if let save {
            for line in try AttachmentSaver(settings: settings, directory: save).save(report) { printError("chest: " + line) }
        }
    }
}
