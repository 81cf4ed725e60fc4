import Glibc

/// A POSIX error number, with `strerror(3)` as its description.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noSuchFile = Errno(ENOENT)
    public static let fileExists = Errno(EEXIST)
}

/// A failed system call with what it was called on: "bind /run/user/1000/chestd.sock: Address already in use".
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public let call: String
    public let path: String?
    public let errno: Errno

    public init(_ call: String, path: String? = nil, errno: Errno = .current) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String {
        path.map { "\(call) \($0): \(errno)" } ?? "\(call): \(errno)"
    }
}

/// Calls `body` until it returns something other than -1 with EINTR; -1 with another errno throws.
@discardableResult
public func retryingOnInterrupt<T: FixedWidthInteger>(
    _ call: String, path: String? = nil, _ body: () -> T
) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno.current
        if error != .interrupted { throw SystemCallError(call, path: path, errno: error) }
    }
}
