/// What became of a hook or desktop-notification command.
package enum HookOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The command ended by itself. A command killed by a signal it did not get from us reports
    /// 128 + the signal number, as the shell does.
    case exited(status: Int32)
    /// The command outlived its timeout; its process group was sent SIGTERM, then SIGKILL.
    case timedOut
    /// The command could not be started at all.
    case failedToStart(reason: String)

    package var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .timedOut: "timed out and was killed"
        case .failedToStart(let reason): "could not start: \(reason)"
        }
    }
}
