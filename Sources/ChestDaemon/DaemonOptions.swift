import ChestArguments
import ChestCore
import ChestIO

/// `chestd`'s command line, declared for the parser, the help and the man page's synopsis.
struct DaemonOptions: ParsableCommand, Equatable {
    static let name = "chestd"
    static let abstract = """
        Watches the chest directory, reads fixes from gpsd, and unlocks pages when their locks hold.
        Runs in the foreground and logs one line per event to stderr; stops on SIGTERM or SIGINT.
        """
    static let parameters: [Parameter] = [
        .option(
            "--chest", value: "DIR", help: "the chest directory (default $XDG_DATA_HOME/chest, or $CHEST_DIR)",
            completion: .directories),
        .option(
            "--gpsd", value: "HOST:PORT",
            help: "gpsd to read fixes from (default \(SettingKey.gpsd.fixedDefault!), or $CHEST_GPSD)"),
        .option(
            "--socket", value: "PATH",
            help: "the control socket (default $XDG_RUNTIME_DIR/chestd.sock, or $CHEST_SOCKET)",
            completion: .files()),
        .option(
            "--config", value: "FILE", help: "the settings file (default $XDG_CONFIG_HOME/chest/config.json)",
            completion: .files()),
        .option("--weather-url", value: "URL", help: "the weather provider's base URL (for a mirror or a test server)"),
        .flag("--verbose", "-v", help: "log debug lines too"),
        .flag("--version", help: "show the version", inUsage: false),
    ]
    /// The settings key each valued option sets.
    static let keys: [String: SettingKey] = [
        "--chest": .chest, "--gpsd": .gpsd, "--socket": .socket, "--weather-url": .weatherURL,
    ]

    var flags: [SettingKey: String] = [:]
    var configPath: String?
    var verbose = false
    var help = false
    var version = false

    static var usage: String { HelpText.help(for: self, path: [name]) }
    /// The usage line after a mistake, whole: the help's first line is wrapped to the terminal.
    static var usageLine: String { "usage: " + HelpText.usageLines(of: self, path: [name])[0] }

    /// Reads the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
        let invocation = try ArgumentParser.parse(arguments, root: self)
        guard invocation.help == nil else { return DaemonOptions(help: true) }
        return try DaemonOptions(invocation.path[0])
    }

    init(help: Bool) { self.help = help }

    init(_ values: ParsedValues) throws(UsageError) {
        for occurrence in values.occurrences {
            // A path or an address cannot be empty: `--chest ""` is a mistake, not the current directory.
            if occurrence.value == "" { throw UsageError("\(occurrence.name) needs a value") }
        }
        for (option, key) in Self.keys.sorted(by: { $0.key < $1.key }) {
            guard let value = values.value(option) else { continue }
            // The rule the config file's value meets: `--gpsd nonsense:port:x` would be retried forever.
            if let problem = key.problem(value) { throw UsageError("\(option) \"\(value)\": \(problem)") }
            flags[key] = value
        }
        configPath = values.value("--config")
        verbose = values.flag("--verbose")
        version = values.flag("--version")
    }
}
