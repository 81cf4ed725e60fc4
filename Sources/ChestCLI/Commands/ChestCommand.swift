import ChestArguments
import ChestIO

/// A `chest` subcommand: its declaration, and what it does with the settings.
protocol ChestCommand: ParsableCommand {
    func run(settings: Settings) throws
}

extension Parameter {
    /// A message ID, completed from the running chestd's two chests.
    static let messageID = Parameter.positional(
        "ID", help: "a message ID, or any unique prefix of it",
        completion: .shellCommand(Chest.listIDs))
    static let json = Parameter.flag("--json", help: "print JSON")
}
