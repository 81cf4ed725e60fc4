import ChestCore

/// `chestd [--chest DIR] [--gpsd HOST:PORT] [--socket PATH] [--config FILE] [--weather-url URL] [-v]`.
struct DaemonOptions: Equatable {
    var flags: [String: String] = [:]
    var configPath: String?
    var verbose = false
    var help = false
    var version = false

    static let usage = """
        usage: chestd [--chest DIR] [--gpsd HOST:PORT] [--socket PATH] [--config FILE] [--weather-url URL] [-v]

        Watches the chest directory, reads fixes from gpsd, and unlocks pages when their locks hold.
        Runs in the foreground and logs one line per event to stderr; stops on SIGTERM or SIGINT.

          --chest DIR         the chest directory (default $XDG_DATA_HOME/chest, or $CHEST_DIR)
          --gpsd HOST:PORT    gpsd to read fixes from (default localhost:2947, or $CHEST_GPSD)
          --socket PATH       the control socket (default $XDG_RUNTIME_DIR/chestd.sock, or $CHEST_SOCKET)
          --config FILE       the settings file (default $XDG_CONFIG_HOME/chest/config.json)
          --weather-url URL   the weather provider's base URL (for a mirror or a test server)
          -v, --verbose       log debug lines too
          -h, --help          show this help
          --version           show the version
        """

    /// Reads the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
        var options = DaemonOptions()
        var rest = arguments[...]
        let valued = ["--chest": "chest", "--gpsd": "gpsd", "--socket": "socket", "--weather-url": "weather.url"]
        while let argument = rest.popFirst() {
            var (name, inline) = (argument, String?.none)
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst(), !next.isEmpty else { throw UsageError("\(name) needs a value") }
                return next
            }
            switch name {
            case "-v", "--verbose": options.verbose = true
            case "-h", "--help": options.help = true
            case "--version": options.version = true
            case "--config": options.configPath = try value()
            default:
                guard let key = valued[name] else { throw UsageError("unknown option \(argument)") }
                options.flags[key] = try value()
            }
        }
        if let gpsd = options.flags["gpsd"], !gpsd.contains(":") || gpsd.hasSuffix(":") {
            throw UsageError("--gpsd wants HOST:PORT, such as localhost:2947")
        }
        return options
    }
}
