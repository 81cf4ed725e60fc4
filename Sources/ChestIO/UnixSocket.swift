import Glibc

/// Helpers for AF_UNIX sockets shared by the control server and client and the systemd notifier.
package enum UnixSocket {
    /// Bytes available for a path in `sockaddr_un.sun_path`, less the terminating NUL.
    package static let maximumPathLength = UnixSocketAddress.capacity - 1

    /// A new close-on-exec AF_UNIX socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`).
    package static func make(_ type: __socket_type) throws(SystemCallError) -> FileDescriptor {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        return FileDescriptor(rawValue: fd)
    }

    /// A connected stream socket to `path`, or the error `connect(2)` gave.
    ///
    /// A server that stopped accepting leaves its backlog full, and connect(2) on a full AF_UNIX backlog waits for
    /// room with the socket's send timeout: `timeout` seconds bound that wait (EAGAIN), so no client hangs for ever.
    package static func connect(to path: String, timeout: Int = 10) throws(SystemCallError) -> FileDescriptor {
        let address = try UnixSocketAddress(path: path)
        let fd = try make(SOCK_STREAM)
        setTimeouts(fd, seconds: timeout)
        do throws(SystemCallError) {
            _ = try address.withSockaddr { (address, length) throws(SystemCallError) in
                try retryingOnInterrupt("connect", path: path) { Glibc.connect(fd.rawValue, address, length) }
            }
        } catch {
            fd.close()
            throw error
        }
        setTimeouts(fd, seconds: 0)
        return fd
    }

    /// The uid of the process at the other end. Glibc does not import `struct ucred`, so its layout
    /// `{ pid_t pid; uid_t uid; gid_t gid; }` is spelled out. The corresponding C call is
    /// `getsockopt(SO_PEERCRED)`.
    package static func peerUID(_ fd: FileDescriptor) -> uid_t? {
        var credentials = (pid: pid_t(0), uid: uid_t(0), gid: gid_t(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    static func setTimeouts(_ fd: FileDescriptor, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd.rawValue, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}
