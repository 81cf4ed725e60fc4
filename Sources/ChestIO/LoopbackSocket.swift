import Glibc

/// A TCP socket on 127.0.0.1, for the private servers of a rehearsal (its gpsd, its weather provider).
package enum LoopbackSocket {
    /// A close-on-exec TCP socket bound to 127.0.0.1:`port` (0: a port the kernel picks), listening when
    /// `backlog` is given, and the port it got.
    package static func bound(port: Int = 0, listening backlog: Int32? = nil) throws(SystemCallError) -> (
        FileDescriptor, port: Int
    ) {
        let raw = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw SystemCallError("socket") }
        let fd = FileDescriptor(rawValue: raw)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let failedCall = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> String? in
                if Glibc.bind(raw, address, length) != 0 { return "bind" }
                if let backlog, Glibc.listen(raw, backlog) != 0 { return "listen" }
                if getsockname(raw, address, &length) != 0 { return "getsockname" }
                return nil
            }
        }
        if let failedCall {
            let error = SystemCallError(failedCall, path: "127.0.0.1:\(port)")
            fd.close()
            throw error
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
