import ChestArguments
import ChestCore
import ChestIO

/// `chest pin ID PIN [--page N]`
struct PinCommand: ChestCommand {
    static let name = "pin"
    static let abstract = "try a PIN on a message's PIN locks"
    static let discussion = """
        Tries a 4-digit PIN on the message's PIN locks (or one page's). After 5 wrong PINs, attempts wait 30 s, \
        1 min, 5 min, 15 min, then 1 h.
        """
    static let parameters: [Parameter] = [
        .messageID,
        .positional("PIN", help: "the 4 digits"),
        .option("--page", value: "N", help: "try only this page's PIN locks"),
    ]

    var id: String
    var pin: String
    var page: Int?

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        pin = values.positional("PIN")[0]
        page = try values.value("--page", "--page wants a page number from 1 to \(Message.maximumPages)") { text in
            Int(text).flatMap { (1...Message.maximumPages).contains($0) ? $0 : nil }
        }
    }

    func run(settings: Settings) throws {
        let outcome = try CLI.client(settings).call(ControlRequest(op: .pin, id: id, pin: pin, page: page),
                                                    expecting: PINOutcome.self)
        print(outcome.text)
    }
}
