import Foundation
import Glibc

/// A wait that ran out: what was awaited and for how long.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Polls `condition` every 20 ms until it holds; throws `WaitTimedOut` after `timeout` seconds. The way a test
/// waits for the effect it needs (a line in a log, a file, a state) instead of sleeping and hoping.
public func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw WaitTimedOut(description: "timed out after \(timeout) s waiting until \(what)") }
        usleep(20_000)
    }
}
