import Glibc

/// A POSIX error number, with `strerror(3)` as its description.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    package static var current: Errno { Errno(errno) }

    package var description: String { String(cString: strerror(rawValue)) }

    package static let interrupted = Errno(EINTR)
    package static let wouldBlock = Errno(EAGAIN)
    package static let noSuchFile = Errno(ENOENT)
    package static let fileExists = Errno(EEXIST)
}

/// A failed system call with what it was called on: "bind /run/user/1000/chestd.sock: Address already in use".
package struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    package let call: String
    package let path: String?
    package let errno: Errno

    package init(_ call: String, path: String? = nil, errno: Errno = .current) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    package var description: String {
        path.map { "\(call) \($0): \(errno)" } ?? "\(call): \(errno)"
    }
}

/// Calls `body` until it returns something other than -1 with EINTR; -1 with another errno throws.
@discardableResult
package func retryingOnInterrupt<T: FixedWidthInteger>(
    _ call: String, path: String? = nil, _ body: () -> T
) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno.current
        if error != .interrupted { throw SystemCallError(call, path: path, errno: error) }
    }
}
