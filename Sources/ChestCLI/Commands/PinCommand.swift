import ChestArguments
import ChestCore
import ChestIO

/// `chest pin ID PIN [--page N]`
struct PinCommand: ChestCommand {
    static let name = "pin"
    static let abstract = "try a PIN on a message's PIN locks"
    static let discussion = """
        Tries a PIN on the message's PIN locks (or one page's): 4 to 12 digits, as the sender chose (a format 1 \
        file's are 4). After 5 wrong attempts (PINs and answers of a message count together), attempts wait \
        30 s, then 1 min, 5 min, 15 min and 1 h; the error says when the next try is allowed, and a restart of \
        chestd does not reset the wait. Repeating a wrong PIN costs nothing. When the PIN goes with a sealed place, \
        it is kept and tried at each new place instead, uncounted.
        """
    static let parameters: [Parameter] = [
        .messageID,
        .positional("PIN", help: "the PIN's digits, such as 4821"),
        .option("--page", value: "N", help: "try only this page's PIN locks"),
    ]

    var id: String
    var pin: String
    var page: Int?

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        pin = values.positional("PIN")[0]
        // A PIN that no lock can have is a mistake in the command, as compose treats it, not a wrong attempt.
        guard PINAttempts.isWellFormed(pin, maximumDigits: PINAttempts.maximumSealedDigits) else {
            throw UsageError("a PIN is 4 to \(PINAttempts.maximumSealedDigits) digits, such as 4821")
        }
        page = try values.value("--page", "--page wants a page number from 1 to \(Message.maximumPages)") { text in
            Int(text).flatMap { (1...Message.maximumPages).contains($0) ? $0 : nil }
        }
    }

    /// How long `chest pin` and `chest answer` wait for chestd: a sealed PIN or answer is checked by Argon2id runs
    /// (up to 1 GiB each) queued behind the key derivations of places, which on a busy laptop take minutes, not
    /// the seconds other requests do.
    static let answerTimeout: Double = 300

    func run(settings: Settings) throws {
        let outcome = try CLI.client(settings).call(
            ControlRequest.pin(id: id, pin: pin, page: page),
            expecting: PINOutcome.self, timeout: Self.answerTimeout)
        print(
            Self.sentence(
                outcome,
                report: {
                    try? CLI.client(settings).call(
                        ControlRequest.read(id: id),
                        expecting: ReadReport.self)
                }))
    }

    /// "PIN accepted for page 2; it still needs its time lock" when the PIN opened nothing yet: which page took it
    /// and what that page's set still waits for.
    static func sentence(_ outcome: PINOutcome, noun: String = "PIN", report: () -> ReadReport?) -> String {
        guard case let .accepted(latched, opened) = outcome, opened.isEmpty, let report = report() else {
            return outcome.text(for: noun, timeZone: .current)
        }
        let parts = Set(latched.map { $0.page }).sorted().map { number -> String in
            let page = report.pages.first { $0.number == number }
            let sets = Set(latched.filter { $0.page == number }.map(\.set)).sorted { $0.rawValue < $1.rawValue }
            let waiting: [String] = sets.flatMap { set -> [String] in
                let locks = page?.sets.first { $0.set == set }?.locks ?? []
                return locks.filter { !$0.holds }.map(\.type.rawValue)
            }
            let needs =
                waiting.isEmpty
                ? "it opens at the next look"
                : "it still needs its \(waiting.joined(separator: " and ")) lock\(waiting.count == 1 ? "" : "s")"
            return "\(noun) accepted for page \(number); \(needs)"
        }
        return parts.isEmpty ? outcome.text(for: noun, timeZone: .current) : parts.joined(separator: "\n")
    }
}
