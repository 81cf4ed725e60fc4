import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest hunt submit MESSAGE PAGE --file FILE | --text TEXT`: a team's photo or text for a mission page
/// (docs/HUNTS.md "Missions").
struct HuntSubmitCommand: ChestCommand {
    static let name = "submit"
    static let abstract = "send the organiser a photo or a text for a mission page; they judge it and give its points"
    static let synopses = ["MESSAGE PAGE --file FILE", "MESSAGE PAGE --text TEXT"]
    static let discussion = """
        A mission page (compose --mission) asks for something the organiser judges: a photo of your team at the \
        fountain, what the guide told you. Send a photo with --file (a PNG, JPEG or WebP photo, known by its bytes \
        whatever its name; at most 8 MiB: scale a bigger one down first) or a text with --text (1 to 2,000 \
        characters, no control characters but line breaks). Bad input is refused here, before anything is sent. \
        chestd seals it to the organiser's key (no other team can read it on the broker), signs it with your \
        team's key and sends it through its outbox: while the broker is away it waits there. The board lists it \
        for the organiser, who accepts it (with up to the page's points) or rejects it with a reason: chest \
        watch, chest nav and a desktop notification tell you the verdict. Until it is judged, sending again \
        replaces what you sent; after a rejection you may send again; a page accepted is judged once.

        example:
          chest hunt submit 3f2a 2 --file fountain.jpg
          chest hunt submit 3f2a 3 --text "The guide said 1642, after the fire."
        """
    static let parameters: [Parameter] = [
        .positional("MESSAGE", help: "the message's ID or a unique prefix of it"),
        .positional("PAGE", help: "the mission page's number"),
        .option("--file", value: "FILE", help: "a photo: PNG, JPEG or WebP, at most 8 MiB", completion: .files()),
        .option("--text", value: "TEXT", help: "a text: 1 to 2,000 characters"),
    ]

    var message: String
    var page: Int
    var file: String?
    var text: String?

    init(_ values: ParsedValues) throws(UsageError) {
        message = values.positional("MESSAGE")[0]
        let pageText = values.positional("PAGE")[0]
        guard let page = Int(pageText), page >= 1 else { throw UsageError("PAGE is a page number, not \(pageText)") }
        self.page = page
        file = values.value("--file")
        text = values.value("--text")
        guard (file == nil) != (text == nil) else {
            throw UsageError("hunt submit sends one thing: a photo with --file FILE or a text with --text TEXT")
        }
        if let text, let problem = HuntSubmission.problem(text: text) { throw UsageError(problem) }
    }

    func run(settings: Settings) throws {
        var path: String?
        if let file {
            // Checked here, before anything is sent; chestd reads the file again where it is.
            let bytes = try MissionFile.read(file)
            if case let .failure(error) = MissionPhoto.check(bytes) {
                throw ChestError("\(file): \(error); nothing was sent")
            }
            path = ImportCommand.resolved(
                file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file)
        }
        let notes = try CLI.client(settings).call(
            ControlRequest.submit(id: message, page: page, text: text, path: path), expecting: [String].self)
        for note in notes { print(note) }
    }
}
