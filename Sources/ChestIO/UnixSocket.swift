import Glibc

/// Helpers for AF_UNIX stream sockets shared by the server and the client.
public enum UnixSocket {
    /// Bytes available for a path in `sockaddr_un.sun_path`, less the terminating NUL.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with a `sockaddr_un` for `path`, refusing paths that do not fit.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(SystemCallError) -> T {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else { throw SystemCallError("socket path", path: path, errno: Errno(ENAMETOOLONG)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A connected stream socket to `path`, or the error `connect(2)` gave.
    public static func connect(to path: String) throws(SystemCallError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        let result = try withAddress(path) { address, length in
            var result: Int32
            repeat { result = Glibc.connect(fd, address, length) } while result == -1 && errno == EINTR
            return result
        }
        if result == -1 {
            let error = SystemCallError("connect", path: path)
            close(fd)
            throw error
        }
        return fd
    }

    /// The uid of the process at the other end. Glibc does not import `struct ucred`, so its layout
    /// `{ pid_t pid; uid_t uid; gid_t gid; }` is spelled out. The corresponding C call is
    /// `getsockopt(SO_PEERCRED)`.
    static func peerUID(_ fd: Int32) -> uid_t? {
        var credentials = (pid: pid_t(0), uid: uid_t(0), gid: gid_t(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    static func setNonBlocking(_ fd: Int32, _ on: Bool) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}
