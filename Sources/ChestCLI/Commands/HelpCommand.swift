import ChestArguments
import ChestIO

/// `chest help [COMMAND]`: the same text as `chest COMMAND --help`.
struct HelpCommand: ChestCommand {
    static let name = "help"
    static let abstract = "explain a command"
    static var parameters: [Parameter] {
        [
            .positional(
                "COMMAND", arity: .optional, help: "the command to explain",
                completion: .words(Chest.subcommands.map { $0.name }))
        ]
    }

    var topic: (any ParsableCommand.Type)?

    init(_ values: ParsedValues) throws(UsageError) {
        topic = try values.positional("COMMAND").first.map { name throws(UsageError) in
            try Chest.subcommand(named: name)
        }
    }

    func run(settings: Settings) throws {
        if let topic {
            print(HelpText.help(for: topic, path: [Chest.name, topic.name]))
        } else {
            print(HelpText.help(for: Chest.self, path: [Chest.name]))
        }
    }
}
