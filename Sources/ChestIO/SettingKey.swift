import ChestCore
import FoundationEssentials

/// One setting chest and chestd know (docs/DESIGN.md "Commands and output"): its name in the config file, what it
/// does, which values it takes and what holds when it is not set. The one place these rules live: `chest config`
/// checks a new value with them, and the settings file is checked with them when it is read.
package enum SettingKey: String, CaseIterable, Sendable, Comparable {
    case name
    case chest
    case socket
    case gpsd
    case weatherKey = "weather.key"
    case weatherURL = "weather.url"
    case weatherMaximumAge = "weather.maxAgeMinutes"
    case hook
    case hookTimeout = "hook.timeoutSeconds"
    case notify

    /// What holds when it is not set, where that is one fixed value: the one place each default is written, for
    /// the help, `chest config` and the value in effect. Nil for the directories (they follow the environment) and
    /// for what is simply absent unless set (the weather key and URL, the hook).
    package var fixedDefault: String? {
        switch self {
        case .name: Message.defaultSender
        case .gpsd: "localhost:2947"
        case .weatherMaximumAge: "30"
        case .hookTimeout: "10"
        case .notify: "true"
        case .chest, .socket, .weatherKey, .weatherURL, .hook: nil
        }
    }

    /// What it does, for `chest config --help`.
    package var help: String {
        let fixed = fixedDefault ?? ""
        return switch self {
        case .name: "your name as sender of the messages you compose (default \"\(fixed)\")"
        case .chest: "the chest directory (default $XDG_DATA_HOME/chest)"
        case .socket: "chestd's control socket (default $XDG_RUNTIME_DIR/chestd.sock)"
        case .gpsd: "gpsd's HOST:PORT (default \(fixed))"
        case .weatherKey: "an OpenWeatherMap API key; without one, Open-Meteo is used"
        case .weatherURL: "the weather provider's base URL (a mirror, or a test server)"
        case .weatherMaximumAge: "how old a weather reading may be and still open a lock (default \(fixed))"
        case .hook: "a command run on each unlock, with the event as JSON on its standard input"
        case .hookTimeout: "how long a hook may run before it is killed (default \(fixed))"
        case .notify: "\"false\" turns off desktop notifications"
        }
    }

    /// A running chestd takes a new value only when it restarts.
    package var needsRestart: Bool { [.chest, .socket, .gpsd].contains(self) }

    /// Shown instead of the value (an API key is a secret).
    package var isSecret: Bool { self == .weatherKey }

    /// Why `value` is not a valid value, with the values allowed; nil when it is. A value chestd could not use is
    /// refused rather than left to quietly turn a feature off (a negative weather age would shut every weather lock).
    package func problem(_ value: String) -> String? {
        switch self {
        case .notify:
            return ["true", "false"].contains(value) ? nil : "notify is true or false"
        case .hookTimeout:
            return Self.positive(value, upTo: 3600)
                ? nil : "hook.timeoutSeconds is a number of seconds from 0.1 to 3600, such as 10"
        case .weatherMaximumAge:
            return Self.positive(value, upTo: 24 * 60)
                ? nil : "weather.maxAgeMinutes is a number of minutes from 1 to 1440, such as 30"
        case .gpsd:
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, !parts.dropLast().joined(separator: ":").isEmpty,
                let port = Int(parts.last!), (1...65535).contains(port)
            else {
                return "gpsd is HOST:PORT with a port from 1 to 65535, such as localhost:2947"
            }
            return nil
        case .weatherURL:
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                return "weather.url is an http:// or https:// URL, such as https://api.open-meteo.com"
            }
            return nil
        case .name, .chest, .socket, .weatherKey:
            return value.trimmingSpaces().isEmpty ? "\(rawValue) cannot be empty; use --unset \(rawValue)" : nil
        case .hook:
            return nil
        }
    }

    private static func positive(_ text: String, upTo limit: Double) -> Bool {
        guard let number = Double(text), number.isFinite else { return false }
        return number > 0 && number <= limit
    }

    /// The key named `name`, or an error that lists the keys.
    package static func named(_ name: String) throws(ChestError) -> SettingKey {
        guard let key = SettingKey(rawValue: name) else {
            throw ChestError(
                "unknown setting \"\(name)\"; the settings are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return key
    }

    package static func < (a: SettingKey, b: SettingKey) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where a setting's value came from, in order of precedence.
package enum SettingOrigin: Hashable, Sendable, CustomStringConvertible {
    case flag
    case environment(String)
    case file
    case unset

    package var description: String {
        switch self {
        case .flag: "flag"
        case let .environment(variable): "environment ($\(variable))"
        case .file: "file"
        case .unset: "default"
        }
    }
}
