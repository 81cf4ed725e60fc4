import Glibc

/// Why the command line could not get an answer from chestd, each with the sentence `chest` prints.
package enum ControlClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing answers on the socket: no socket file, or one left by a daemon that died.
    case notRunning(socket: String)
    /// The socket belongs to another user.
    case permissionDenied(socket: String)
    /// The socket could not be reached for another reason.
    case unreachable(socket: String, Errno)
    /// The request could not be sent.
    case sendFailed(Errno)
    /// chestd hung up before it answered.
    case connectionClosed
    /// No answer came within the time allowed, in whole seconds.
    case timedOut(seconds: Int)
    /// chestd answered with an error: its sentence.
    case refused(String)
    /// chestd's reply could not be decoded.
    case malformedReply
    /// chestd's queue of connections stayed full: it runs but does not take new clients.
    case busy(socket: String)

    /// Maps the failure to connect to `socket` onto what it means for the user.
    init(connecting socket: String, _ error: SystemCallError) {
        switch error.errno.rawValue {
        case ENOENT, ECONNREFUSED: self = .notRunning(socket: socket)
        case EACCES: self = .permissionDenied(socket: socket)
        case EAGAIN: self = .busy(socket: socket)
        default: self = .unreachable(socket: socket, error.errno)
        }
    }

    package var description: String {
        switch self {
        case let .notRunning(socket):
            "chestd is not running (nothing answers on \(socket)); start it with `chestd &` or `systemctl --user start chestd`"
        case let .permissionDenied(socket):
            "cannot reach chestd at \(socket): permission denied (it belongs to another user)"
        case let .unreachable(socket, errno): "cannot reach chestd at \(socket): \(errno)"
        case let .sendFailed(errno): "cannot talk to chestd: \(errno)"
        case .connectionClosed: "chestd closed the connection without answering; see its log"
        case let .timedOut(seconds): "chestd did not answer within \(seconds) s"
        case let .refused(reason): reason
        case .malformedReply: "chestd sent a reply this chest cannot read (are both the same version?)"
        case let .busy(socket):
            "chestd at \(socket) takes no new connections (too many clients waiting); try again shortly, or see its log"
        }
    }
}
