import ChestCore
import FoundationEssentials
import Glibc

/// Where things are and how they behave, from (in order of precedence) command-line flags, the environment
/// (`CHEST_DIR`, `CHEST_SOCKET`, `CHEST_GPSD`), the config file (`$XDG_CONFIG_HOME/chest/config.json`) and
/// built-in defaults (docs/DESIGN.md "Commands and output").
package struct Settings: Sendable {
    /// The value of each key that is set, from the highest-precedence source that sets it.
    package private(set) var values: [SettingKey: String] = [:]
    /// Where each set value came from; unset keys have none.
    package private(set) var origins: [SettingKey: SettingOrigin] = [:]
    /// Keys in the config file that no version of chest knows (a typo, or a newer version's), ignored.
    package private(set) var unknownKeys: [String] = []
    /// Values in the config file that their key does not take, each in a sentence with the rule and the fix; such a
    /// value is not used (its default holds), and chestd refuses to start on it (`checked()`).
    package private(set) var invalid: [String] = []
    /// The command-line values by key, kept so that a reload can apply them again.
    package let flags: [SettingKey: String]
    package let configPath: String
    package let configDirectory: String
    private let environment: [String: String]

    /// The variables that set a key from the environment.
    static let environmentKeys: [(variable: String, key: SettingKey)] = [
        ("CHEST_DIR", .chest), ("CHEST_SOCKET", .socket),
        ("CHEST_GPSD", .gpsd),
    ]

    /// Reads the config file (a missing file is an empty one). `flags` are command-line values by key, checked by
    /// their parser. A value the file or the environment holds that its key does not take is set aside in `invalid`,
    /// so nothing is quietly ignored.
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment, configPath: String? = nil,
        flags: [SettingKey: String] = [:]
    ) throws(ChestError) {
        self.environment = environment
        self.flags = flags
        let home = Directory.home(environment)
        configDirectory =
            (environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config") + "/chest"
        self.configPath = configPath ?? configDirectory + "/config.json"
        if let data = FileManager.default.contents(atPath: self.configPath) {
            guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
                throw ChestError("\(self.configPath) is not a JSON object; fix it or remove it")
            }
            for (name, value) in object.sorted(by: { $0.key < $1.key }) {
                guard let key = SettingKey(rawValue: name) else {
                    unknownKeys.append(name)
                    continue
                }
                let text = value.text
                if let problem = key.problem(text) {
                    invalid.append(
                        "\(self.configPath): \(problem), not \"\(text)\"; fix it with chest config \(name) VALUE")
                    continue
                }
                set(key, text, from: .file)
            }
        }
        for (variable, key) in Self.environmentKeys {
            guard let value = environment[variable], !value.isEmpty else { continue }
            if let problem = key.problem(value) {
                invalid.append("$\(variable): \(problem), not \"\(value)\"; fix it or unset it")
                continue
            }
            set(key, value, from: .environment(variable))
        }
        for (key, value) in flags { set(key, value, from: .flag) }
    }

    /// These settings, or the first invalid value in the file as an error: what chestd runs with.
    package func checked() throws(ChestError) -> Settings {
        if let first = invalid.first { throw ChestError(first) }
        return self
    }

    private mutating func set(_ key: SettingKey, _ value: String, from origin: SettingOrigin) {
        values[key] = value
        origins[key] = origin
    }

    /// Where `key`'s value comes from.
    package func origin(of key: SettingKey) -> SettingOrigin { origins[key] ?? .unset }

    /// The value in effect for `key`, set or default, as `chest config` shows it.
    package func effectiveValue(_ key: SettingKey) -> String {
        if let value = values[key] { return key.isSecret ? "(set)" : value }
        if let fixed = key.fixedDefault { return fixed }
        switch key {
        case .chest: return chestDirectory
        case .socket: return socketPath
        case .weatherURL: return "the provider's own"
        default: return "(none)"
        }
    }

    package var senderName: String {
        values[.name].flatMap { $0.isEmpty ? nil : $0 } ?? Message.defaultSender
    }

    /// The value set for `key` (only usable ones are kept), else its fixed default.
    private func valueOrDefault(_ key: SettingKey) -> String? { values[key] ?? key.fixedDefault }

    /// A numeric setting's value in effect (its fixed default always reads as a number).
    private func number(_ key: SettingKey) -> Double { valueOrDefault(key).flatMap(Double.init) ?? 0 }

    package var chestDirectory: String {
        if let chest = values[.chest] { return chest }
        let home = Directory.home(environment)
        return (environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share") + "/chest"
    }

    package var socketPath: String {
        if let socket = values[.socket] { return socket }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/chestd.sock" }
        return chestDirectory + "/.run/chestd.sock"
    }

    /// gpsd's host and port.
    package var gpsd: (host: String, port: String) {
        let text = valueOrDefault(.gpsd) ?? ""
        guard let colon = text.lastIndex(of: ":") else { return (text, "2947") }
        let host = String(text[..<colon]).trimming { $0 == "[" || $0 == "]" }
        return (host.isEmpty ? "localhost" : host, String(text[text.index(after: colon)...]))
    }

    package var identityPath: String { configDirectory + "/" + Self.identityFileName }

    /// The name of the identity file (ChestSeal's `Identity`) in the config directory.
    package static let identityFileName = "identity.json"

    package var weatherKey: String? { values[.weatherKey].flatMap { $0.isEmpty ? nil : $0 } }
    package var weatherURL: String? { values[.weatherURL].flatMap { $0.isEmpty ? nil : $0 } }
    package var weatherMaximumAge: Double { number(.weatherMaximumAge) * 60 }
    package var hook: String? { values[.hook].flatMap { $0.isEmpty ? nil : $0 } }
    package var hookTimeout: Double { number(.hookTimeout) }
    package var desktopNotifications: Bool { valueOrDefault(.notify) != "false" }

    /// Writes one setting to the config file (nil removes it), keeping the others.
    package static func store(_ key: SettingKey, _ value: String?, at path: String) throws(ChestError) {
        var object: [String: JSONValue] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            guard let existing = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
                throw ChestError("\(path) is not a JSON object; fix it or remove it")
            }
            object = existing
        }
        object[key.rawValue] = value.map(JSONValue.string)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(object)
            try Directory.create(directoryName(path))
            try AtomicFile.write(data + Data("\n".utf8), to: path)
        } catch {
            throw ChestError("cannot write \(path): \(error)")
        }
    }
}
