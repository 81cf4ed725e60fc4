import Glibc

/// The address of an AF_UNIX socket: a filesystem path, or a name in Linux's abstract namespace.
package struct UnixSocketAddress: Hashable, Sendable {
    /// The bytes of `sun_path`: a path without its NUL, or an abstract name after its leading NUL.
    package let pathBytes: [UInt8]

    /// Bytes in `sockaddr_un.sun_path`.
    package static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The address of the socket file at `path`; refused (ENAMETOOLONG) when the path and its NUL do not fit.
    package init(path: String) throws(SystemCallError) {
        let bytes = Array(path.utf8)
        guard bytes.count < Self.capacity else {
            throw SystemCallError("socket path", path: path, errno: Errno(ENAMETOOLONG))
        }
        pathBytes = bytes
    }

    /// An address as `NOTIFY_SOCKET` names one: "/path", or "@name" for the abstract namespace; nil for anything
    /// else, or a name that does not fit.
    package init?(notation: String) {
        guard let first = notation.first else { return nil }
        var bytes = Array(notation.utf8)
        switch first {
        case "/": if bytes.contains(0) { return nil }
        case "@": bytes[0] = 0
        default: return nil
        }
        // A path that fills sun_path exactly goes without its NUL, as the kernel allows.
        guard bytes.count > 1, bytes.count <= Self.capacity else { return nil }
        pathBytes = bytes
    }

    /// Whether the address is in the abstract namespace rather than a file.
    package var isAbstract: Bool { pathBytes.first == 0 }

    /// Calls `body` with the address as a `sockaddr` and its length, for bind(2), connect(2) or sendto(2).
    package func withSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        // A path's length counts its terminating NUL when it fits; an abstract name's length is exact.
        let length =
            MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
            + min(pathBytes.count + (isAbstract ? 0 : 1), Self.capacity)
        return try withUnsafePointer(to: &address) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (generic) throws(Failure) -> Result in
                try body(generic, socklen_t(length))
            }
        }
    }
}
