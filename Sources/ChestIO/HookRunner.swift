import ChestCore
import FoundationEssentials

/// Runs the user's hook command for an event: `/bin/sh -c COMMAND`, with the event's JSON object on stdin
/// and in the environment.
///
/// Environment given to the hook: `environment` (normally the daemon's own, minus systemd's
/// `NOTIFY_SOCKET`/`WATCHDOG_*`/`LISTEN_*`), plus `CHEST_EVENT_JSON` (the whole object) and one
/// `CHEST_<FIELD>` per top-level string, number or boolean field of the event, the camel-case name
/// turned to upper snake case: `CHEST_EVENT`, `CHEST_ID`, `CHEST_TITLE`, `CHEST_PAGE`, `CHEST_SET`,
/// `CHEST_AT`, `CHEST_TEXT` for an unlock; `CHEST_FILE`, `CHEST_REASON` for a rejection, and so on.
///
/// The hook runs in its own process group with stdout and stderr on the daemon's stderr. When it
/// outlives `timeout`, the whole group gets SIGTERM, then SIGKILL after `killGrace` seconds; the
/// caller gets `.timedOut` without waiting any longer.
package struct HookRunner: Sendable {
    /// The default time a hook may take, in seconds: the setting's.
    package static let defaultTimeout = Double(SettingKey.hookTimeout.fixedDefault!)!

    /// Seconds between SIGTERM and SIGKILL for a hook that outlived its timeout.
    package let killGrace: Double

    package init(killGrace: Double = 2) {
        self.killGrace = killGrace
    }

    /// Runs `command` for one event and returns once it has exited or been killed.
    ///
    /// Waiting happens on a dedicated thread, never on the Swift concurrency pool.
    package func run(
        command: String, event: ChestEvent, environment: [String: String],
        timeout: Double = HookRunner.defaultTimeout
    ) async -> HookOutcome {
        let json = ChestJSON.line(event)
        return await ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", command],
            environment: environment.merging(Self.eventVariables(event, json: json)) { _, event in event },
            input: json, timeout: timeout, killGrace: killGrace)
    }

    /// The `CHEST_*` variables for an event, built from its fields; `json` is its line.
    static func eventVariables(_ event: ChestEvent, json: Data) -> [String: String] {
        var variables: [String: String] = ["CHEST_EVENT_JSON": String(decoding: json, as: UTF8.self)]
        for (key, text) in event.scalarFields {
            if let name = variableName(key) { variables["CHEST_" + name] = text }
        }
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
}
