import ChestArguments
import ChestCore
import ChestIO

/// `chest read ID [--json] [--save DIR]`
struct ReadCommand: ChestCommand {
    static let name = "read"
    static let abstract = "open pages, and why the others are still locked"
    static let discussion = """
        The text of the open pages and the files they carry (name, type, size); for each locked page, every lock \
        and what it still waits for ("212 m away (NE)", "opens at 18:00", "needs a 3D fix", "2 of 3 confirming \
        fixes", "weather unknown: offline since 14:02", "it is 4 °C, needs 15..25 °C"), its question and its hints. \
        A page a place opened says when the place was reached beside when it opened. A message you sent stays shut \
        for you ("you sent this message").

        --json gives the same with reason sentences, an open page's attachments (name, type, size), and each lock's \
        target when the file shows it: a visible place's latitude, longitude, radius and label, an altitude's or \
        temperature's min and max, the weather wanted, a time lock's opensAt, an after lock's page; a sealed place \
        or a PIN has none.

        --save DIR writes the open pages' files into DIR (made if missing) under their own names, never over a \
        file that is there: a name already taken gets -2, -3… before its extension, and the line says so. The \
        names are the sender's, so they are cleaned first: / and \\ become _, control and invisible characters and \
        leading dots go (never .., never a hidden file), at most 255 bytes. The files are read from the message \
        file in the chest directory (give --chest DIR when chestd uses another one); a locked page's files cannot \
        be saved.

        example:
          $ chest read 7f3a --save ~/birthday
          chest: saved page 2's cake.jpg as /home/me/birthday/cake.jpg, 182.4 KB
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
        let note = senders.note(
            from: report.from, key: report.senderKey, sentByYou: report.sentByYou, sameID: report.sameID)
        senders.save()
        print(
            json
                ? CLI.jsonText(Output.ReadJSON(report, lookalikeOf: note?.lookalikeOf))
                : Output.read(report, sender: note))
        if let save {
            for line in try AttachmentSaver(settings: settings, directory: save).save(report) {
                printError("chest: " + line)
            }
        }
    }
}
