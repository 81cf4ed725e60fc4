import ChestCore
import Foundation

/// Where things are and how they behave, from (in order of precedence) command-line flags, the environment
/// (`CHEST_DIR`, `CHEST_SOCKET`, `CHEST_GPSD`), the config file (`$XDG_CONFIG_HOME/chest/config.json`) and
/// built-in defaults (docs/DESIGN.md "Commands and output").
public struct Settings: Sendable {
    /// The settings `chest config` knows, with what each one does.
    public static let known: [(key: String, help: String)] = [
        ("name", "your name as sender of the messages you compose (default \"Sender\")"),
        ("chest", "the chest directory (default $XDG_DATA_HOME/chest)"),
        ("socket", "chestd's control socket (default $XDG_RUNTIME_DIR/chestd.sock)"),
        ("gpsd", "gpsd's HOST:PORT (default localhost:2947)"),
        ("weather.key", "an OpenWeatherMap API key; without one, Open-Meteo is used"),
        ("weather.url", "the weather provider's base URL (a mirror, or a test server)"),
        ("weather.maxAgeMinutes", "how old a weather reading may be and still open a lock (default 30)"),
        ("hook", "a command run on each unlock, with the event as JSON on its standard input"),
        ("hook.timeoutSeconds", "how long a hook may run before it is killed (default 10)"),
        ("notify", "\"false\" turns off desktop notifications"),
    ]

    public var values: [String: String]
    /// Where each set value came from: "flag", "environment ($CHEST_DIR)" or "file"; unset keys have none.
    public private(set) var origins: [String: String] = [:]
    /// The command-line values by key, kept so that a reload can apply them again.
    public let flags: [String: String]
    public let configPath: String
    public let configDirectory: String
    private let environment: [String: String]

    /// Reads the config file (a missing file is an empty one). `flags` are command-line values by key.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, configPath: String? = nil,
                flags: [String: String] = [:]) throws(ChestError) {
        self.environment = environment
        self.flags = flags
        let home = environment["HOME"] ?? NSHomeDirectory()
        configDirectory = (environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config") + "/chest"
        self.configPath = configPath ?? configDirectory + "/config.json"
        var values: [String: String] = [:]
        if let data = FileManager.default.contents(atPath: self.configPath) {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ChestError("\(self.configPath) is not a JSON object; fix it or remove it")
            }
            for (key, value) in object {
                values[key] = "\(value)"
                origins[key] = "file"
            }
        }
        for (variable, key) in [("CHEST_DIR", "chest"), ("CHEST_SOCKET", "socket"), ("CHEST_GPSD", "gpsd")] {
            if let value = environment[variable], !value.isEmpty {
                values[key] = value
                origins[key] = "environment ($\(variable))"
            }
        }
        for (key, value) in flags {
            values[key] = value
            origins[key] = "flag"
        }
        self.values = values
    }

    public var senderName: String {
        values["name"].flatMap { $0.isEmpty ? nil : $0 } ?? Message.defaultSender
    }

    public var chestDirectory: String {
        if let chest = values["chest"] { return chest }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share") + "/chest"
    }

    public var socketPath: String {
        if let socket = values["socket"] { return socket }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/chestd.sock" }
        return chestDirectory + "/.run/chestd.sock"
    }

    /// gpsd's host and port.
    public var gpsd: (host: String, port: String) {
        let text = values["gpsd"] ?? "localhost:2947"
        guard let colon = text.lastIndex(of: ":") else { return (text, "2947") }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "localhost" : host, String(text[text.index(after: colon)...]))
    }

    public var identityPath: String { configDirectory + "/" + Self.identityFileName }

    /// The name of the identity file (ChestSeal's `Identity`) in the config directory.
    public static let identityFileName = "identity.json"

    public var weatherKey: String? { values["weather.key"].flatMap { $0.isEmpty ? nil : $0 } }
    public var weatherURL: String? { values["weather.url"].flatMap { $0.isEmpty ? nil : $0 } }
    public var weatherMaximumAge: Double { (values["weather.maxAgeMinutes"].flatMap(Double.init) ?? 30) * 60 }
    public var hook: String? { values["hook"].flatMap { $0.isEmpty ? nil : $0 } }
    public var hookTimeout: Double { values["hook.timeoutSeconds"].flatMap(Double.init) ?? 10 }
    public var desktopNotifications: Bool { values["notify"] != "false" }

    /// Writes one setting to the config file (nil removes it), keeping the others.
    public static func store(_ key: String, _ value: String?, at path: String) throws(ChestError) {
        var object: [String: Any] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            guard let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ChestError("\(path) is not a JSON object; fix it or remove it")
            }
            object = existing
        }
        object[key] = value
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try Directory.create(directoryName(path))
            try AtomicFile.write(data + Data("\n".utf8), to: path)
        } catch {
            throw ChestError("cannot write \(path): \(error)")
        }
    }
}
