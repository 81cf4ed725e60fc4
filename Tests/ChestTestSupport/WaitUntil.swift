import Foundation
import Glibc

/// A wait that ran out: what was awaited and for how long.
package struct WaitTimedOut: Error, CustomStringConvertible {
    package let description: String
}

/// Checks `condition` every `interval` seconds until it holds; whether it did within `timeout` seconds. The one
/// place a test helper waits for the effect it needs (a line in a log, a file, a state, a port) instead of sleeping
/// and hoping.
package func holdsWithin(_ timeout: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows
    -> Bool
{
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        guard Date() < deadline else { return false }
        usleep(useconds_t(interval * 1_000_000))
    }
}

/// `holdsWithin`, throwing `WaitTimedOut` when `condition` never held.
package func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    guard try holdsWithin(timeout, condition) else {
        throw WaitTimedOut(description: "timed out after \(timeout) s waiting until \(what)")
    }
}

/// `holdsWithin` for async tests: sleeps the task, not the thread, between checks.
package func holdsWithin(_ timeout: Double, every interval: Double = 0.02, checking condition: () async throws -> Bool)
    async rethrows -> Bool
{
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try await condition() { return true }
        guard Date() < deadline else { return false }
        try? await Task.sleep(for: .seconds(interval))
    }
}
