import Foundation

/// Runs the user's hook command for an event: `/bin/sh -c COMMAND`, with the event's JSON object on stdin
/// and in the environment.
///
/// Environment given to the hook: `environment` (normally the daemon's own, minus systemd's
/// `NOTIFY_SOCKET`/`WATCHDOG_*`/`LISTEN_*`), plus `CHEST_EVENT_JSON` (the whole object) and one
/// `CHEST_<FIELD>` per top-level string, number or boolean field of the event, the camel-case name
/// turned to upper snake case: `CHEST_EVENT`, `CHEST_ID`, `CHEST_TITLE`, `CHEST_PAGE`, `CHEST_SET`,
/// `CHEST_AT` for an unlock; `CHEST_FILE`, `CHEST_REASON` for a rejection, and so on.
///
/// The hook runs in its own process group with stdout and stderr on the daemon's stderr. When it
/// outlives `timeout`, the whole group gets SIGTERM, then SIGKILL after `killGrace` seconds; the
/// caller gets `.timedOut` without waiting any longer.
public struct HookRunner: Sendable {
    /// The default time a hook may take, in seconds.
    public static let defaultTimeout: Double = 10

    /// Seconds between SIGTERM and SIGKILL for a hook that outlived its timeout.
    public let killGrace: Double

    public init(killGrace: Double = 2) {
        self.killGrace = killGrace
    }

    /// Runs `command` for one event and returns once it has exited or been killed.
    ///
    /// Waiting happens on a dedicated thread, never on the Swift concurrency pool.
    public func run(
        command: String, eventJSON: Data, environment: [String: String],
        timeout: Double = HookRunner.defaultTimeout
    ) async -> HookOutcome {
        await ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", command],
            environment: environment.merging(Self.eventVariables(eventJSON)) { _, event in event },
            input: eventJSON, timeout: timeout, killGrace: killGrace)
    }

    /// The `CHEST_*` variables for an event object; only `CHEST_EVENT_JSON` when it is not a JSON object.
    static func eventVariables(_ eventJSON: Data) -> [String: String] {
        var variables: [String: String] = [:]
        if let object = try? JSONDecoder().decode([String: Scalar].self, from: eventJSON) {
            for (key, value) in object {
                guard let name = variableName(key), let text = value.text else { continue }
                variables["CHEST_" + name] = text
            }
        }
        variables["CHEST_EVENT_JSON"] = String(decoding: eventJSON, as: UTF8.self)
        return variables
    }

    /// "openPages" → "OPEN_PAGES"; nil for keys that would not make a portable variable name.
    private static func variableName(_ key: String) -> String? {
        var name = ""
        var previousWasLowerOrDigit = false
        for scalar in key.unicodeScalars {
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
            else { return nil }
            if scalar.properties.isUppercase && previousWasLowerOrDigit { name += "_" }
            name += String(scalar).uppercased()
            previousWasLowerOrDigit = scalar.properties.isLowercase || ("0"..."9").contains(scalar)
        }
        return name.isEmpty ? nil : name
    }

    /// A top-level field's value as the shell sees it; arrays, objects and null have no text.
    private enum Scalar: Decodable {
        case text(String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .text(bool ? "true" : "false")
            } else if let integer = try? container.decode(Int64.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else if let string = try? container.decode(String.self) {
                self = .text(string)
            } else {
                self = .other
            }
        }

        var text: String? {
            if case .text(let value) = self { value } else { nil }
        }
    }
}
