import Foundation

/// A tmux server of the test's own (its own socket, so nothing else's sessions are touched) running one
/// full-screen program in the session "nav": capture-pane reads the screen, send-keys types.
package struct Tmux: Sendable {
    package let socket: String

    package init(socket: String) { self.socket = socket }

    /// A screen that never showed what a test waited for: what it was and the last screen seen.
    package struct NotShown: Error, CustomStringConvertible {
        package let description: String
    }

    @discardableResult
    package func run(_ arguments: [String]) throws -> Subprocess.Outcome {
        try Subprocess.run(
            "/usr/bin/tmux", ["-S", socket] + arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// The screen as text, one line a row.
    package func screen() throws -> String { try run(["capture-pane", "-p", "-t", "nav"]).stdout }

    /// Waits until the screen satisfies `condition` and returns it; throws with the last screen after `timeout`.
    @discardableResult
    package func waitFor(_ what: String, timeout: Double = 30, _ condition: (String) -> Bool) throws -> String {
        var last = ""
        do {
            try waitUntil(what, timeout: timeout) {
                last = try screen()
                return condition(last)
            }
        } catch let timedOut as WaitTimedOut {
            throw NotShown(description: "\(timedOut); the screen:\n\(last)")
        }
        return last
    }

    /// Types `keys` (tmux key names: "j", "Down", "q").
    package func type(_ keys: String...) throws {
        try run(["send-keys", "-t", "nav"] + keys)
    }

    /// Types q and tells whether the program quit (its session ended) within 10 s.
    package func quitsOnQ() throws -> Bool {
        try type("q")
        do {
            try waitUntil("the program quits", timeout: 10) { try run(["has-session", "-t", "nav"]).status != 0 }
            return true
        } catch is WaitTimedOut {
            return false
        }
    }
}
