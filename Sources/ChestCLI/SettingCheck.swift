import ChestIO
import Foundation

/// What each setting accepts, so that `chest config KEY VALUE` refuses a value chestd could not use rather than
/// letting it quietly turn a feature off (a negative weather age would shut every weather lock).
enum SettingCheck {
    /// Why `value` is not a valid `key`, with the values allowed; nil when it is.
    static func problem(_ key: String, _ value: String) -> String? {
        switch key {
        case "notify":
            return ["true", "false"].contains(value) ? nil : "notify is true or false"
        case "hook.timeoutSeconds":
            return positive(value, upTo: 3600) ? nil : "hook.timeoutSeconds is a number of seconds from 0.1 to 3600, such as 10"
        case "weather.maxAgeMinutes":
            return positive(value, upTo: 24 * 60)
                ? nil : "weather.maxAgeMinutes is a number of minutes from 1 to 1440, such as 30"
        case "gpsd":
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, !parts.dropLast().joined(separator: ":").isEmpty,
                  let port = Int(parts.last!), (1...65535).contains(port) else {
                return "gpsd is HOST:PORT with a port from 1 to 65535, such as localhost:2947"
            }
            return nil
        case "weather.url":
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                return "weather.url is an http:// or https:// URL, such as https://api.open-meteo.com"
            }
            return nil
        case "name", "chest", "socket", "weather.key":
            return value.trimmingCharacters(in: .whitespaces).isEmpty ? "\(key) cannot be empty; use --unset \(key)" : nil
        default:
            return nil
        }
    }

    private static func positive(_ text: String, upTo limit: Double) -> Bool {
        guard let number = Double(text), number.isFinite else { return false }
        return number > 0 && number <= limit
    }
}
