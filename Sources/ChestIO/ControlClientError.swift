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
    /// The socket's folder is not this user's alone (`reason` says how), so whoever listens there may not be chestd.
    case untrustedFolder(socket: String, reason: String)
    /// The process listening on the socket runs as another user (`uid`, nil when the kernel would not say).
    case untrustedPeer(socket: String, uid: uid_t?)

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
        case let .untrustedFolder(socket, reason):
            "will not talk to \(socket): its folder \(reason), so the program listening there may not "
                + "be chestd and would get your PINs and answers; run chestd with a private --socket (a folder of "
                + "yours, mode 0700) and give chest the same"
        case let .untrustedPeer(socket, uid):
            "will not talk to \(socket): it is served by \(uid.map(userName) ?? "an unknown user"), not "
                + "by you, so it is not your chestd; remove it and start chestd, or give chest your chestd's --socket"
        }
    }
}
