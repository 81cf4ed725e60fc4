import ChestArguments
import ChestCore
import ChestIO

/// `chest save ID`, `unsave ID`, `delete ID`, `undelete [ID]`: one request about one message, answered with what
/// became of it.
protocol MessageCommand: ChestCommand {
    /// The request about message `id` (an ID or a unique prefix).
    static func request(for id: String) -> ControlRequest
    /// The word of the answer: `saved 7f3a… "Birthday"`.
    static var done: String { get }
    var id: String { get }
    init(id: String)
}

extension MessageCommand {
    static var parameters: [Parameter] { [.messageID] }

    init(_ values: ParsedValues) throws(UsageError) {
        self.init(id: values.positional("ID")[0])
    }

    func run(settings: Settings) throws { try request(settings) }

    func request(_ settings: Settings, id: String? = nil) throws {
        let result = try CLI.client(settings).call(Self.request(for: id ?? self.id), expecting: ImportResult.self)
        print("\(Self.done) \(result.id) \"\(result.title)\"")
    }
}
