import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest`: parses the command line, runs the command, and maps the outcome to an exit status
/// (0 success, 1 failure with one `chest: …` line on stderr, 64 a usage error).
package enum CLI {
    package static func main(_ arguments: [String]) -> Int32 {
        let chest: Chest
        let command: (any ChestCommand)?
        do {
            let invocation = try ArgumentParser.parse(arguments, root: Chest.self)
            if let help = invocation.help {
                print(help)
                return 0
            }
            chest = try Chest(invocation.path[0])
            // The last command named runs (`chest hunt team add`); every subcommand is a ChestCommand.
            command = try invocation.commands.dropFirst().last.map { type throws(UsageError) in
                try (type as! any ChestCommand.Type).init(invocation.path[invocation.commands.count - 1])
            }
        } catch {
            printError("chest: \(error)")
            return UsageError.exitStatus
        }
        guard let command else {
            chest.run()
            return 0
        }
        do {
            let settings = try Settings(configPath: chest.configPath, flags: chest.flags)
            // `chest config` shows them with the rest, and is how they are fixed.
            if !(command is ConfigCommand) {
                for problem in settings.invalid { printError("chest: \(problem); it is not used") }
            }
            try command.run(settings: settings)
            return 0
        } catch let error as UsageError {
            printError("chest: \(error)")
            return UsageError.exitStatus
        } catch let error as ImportFailures {
            if error.of > 1 { printError("chest: \(error)") }
            return 1
        } catch {
            printError("chest: \(error)")
            return 1
        }
    }

    static func client(_ settings: Settings) throws -> ControlClient {
        try ControlClient(socketPath: settings.socketPath)
    }

    static func jsonText<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? ChestJSON.encoder(pretty: true).encode(value)) ?? Data(), as: UTF8.self)
    }
}
