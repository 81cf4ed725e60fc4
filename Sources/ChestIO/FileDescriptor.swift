import FoundationEssentials
import Glibc

/// An open file descriptor and the calls chest makes on one, shaped like swift-system's `FileDescriptor`.
///
/// Every call that a signal can interrupt is retried on EINTR here, in one place (`retryingOnInterrupt`), and
/// any other failure is thrown as a `SystemCallError` naming the call (and the file, when the caller names it).
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let standardInput = FileDescriptor(rawValue: 0)
    package static let standardOutput = FileDescriptor(rawValue: 1)
    package static let standardError = FileDescriptor(rawValue: 2)

    /// Opens `path` with `flags` (`O_RDONLY | O_NOFOLLOW`, …). The descriptor is always close-on-exec, so that
    /// no child started meanwhile inherits it.
    package static func open(
        _ path: String, _ flags: Int32, permissions: mode_t = 0
    ) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(
            rawValue: try retryingOnInterrupt("open", path: path) {
                Glibc.open(path, flags | O_CLOEXEC, permissions)
            })
    }

    /// Closes the descriptor. It is not retried on EINTR: Linux releases the descriptor even then, and a retry
    /// could close one another thread has just been given.
    package func close() {
        _ = Glibc.close(rawValue)
    }

    /// Runs `body`, then closes the descriptor, whether `body` returned or threw.
    package func closeAfter<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        defer { close() }
        return try body()
    }

    /// Reads up to `buffer.count` bytes into `buffer`; 0 at end of file.
    /// - Parameter path: names the file in the error.
    package func read(into buffer: UnsafeMutableRawBufferPointer, path: String? = nil) throws(SystemCallError) -> Int {
        try retryingOnInterrupt("read", path: path) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `bytes.count` bytes into the start of `bytes`; 0 at end of file.
    /// - Parameter path: names the file in the error.
    package func read(into bytes: inout [UInt8], path: String? = nil) throws(SystemCallError) -> Int {
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) in try read(into: buffer, path: path) }
        }.get()
    }

    /// Writes some of `buffer` and returns how many bytes went.
    /// - Parameter path: names the file in the error.
    package func write(_ buffer: UnsafeRawBufferPointer, path: String? = nil) throws(SystemCallError) -> Int {
        try retryingOnInterrupt("write", path: path) { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes every byte of `bytes`, resuming after short writes.
    /// - Parameter path: names the file in the error.
    package func writeAll(_ bytes: some ContiguousBytes, path: String? = nil) throws(SystemCallError) {
        let failure: SystemCallError? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                do throws(SystemCallError) {
                    offset += try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]), path: path)
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Sends some of `buffer` on a socket and returns how many bytes went; nil when the socket would block. A peer
    /// that is gone is EPIPE, thrown: `MSG_NOSIGNAL` keeps SIGPIPE away, so no process of chest depends on how it
    /// treats that signal (docs/ARCHITECTURE.md "Threads").
    package func send(_ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int? {
        do throws(SystemCallError) {
            return try retryingOnInterrupt("send") {
                Glibc.send(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
        } catch  where error.errno == .wouldBlock {
            return nil
        }
    }

    /// Sends every byte of `bytes` on a socket, resuming after short sends; a socket that would block waits (a
    /// blocking descriptor never does).
    package func sendAll(_ bytes: some ContiguousBytes) throws(SystemCallError) {
        let failure: SystemCallError? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                do throws(SystemCallError) {
                    guard let sent = try send(UnsafeRawBufferPointer(rebasing: buffer[offset...])) else {
                        var entry = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&entry, 1, -1)
                        continue
                    }
                    offset += sent
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Binds the socket to `address` and listens with room for `backlog` waiting clients.
    package func listen(at address: UnixSocketAddress, backlog: Int32, path: String) throws(SystemCallError) {
        let bound = address.withSockaddr { Glibc.bind(rawValue, $0, $1) }
        guard bound == 0 else { throw SystemCallError("bind", path: path) }
        guard Glibc.listen(rawValue, backlog) == 0 else { throw SystemCallError("listen", path: path) }
    }

    /// The next waiting connection, close-on-exec; nil when none waits (a non-blocking listener).
    package func accept() throws(SystemCallError) -> FileDescriptor? {
        do throws(SystemCallError) {
            let accepted = FileDescriptor(
                rawValue: try retryingOnInterrupt("accept") { Glibc.accept(rawValue, nil, nil) })
            accepted.setCloseOnExec()
            return accepted
        } catch  where error.errno == .wouldBlock {
            return nil
        }
    }

    /// The file's status, as `fstat(2)` gives it for the open file (not for whatever its path names now).
    /// - Parameter path: names the file in the error.
    package func status(path: String? = nil) throws(SystemCallError) -> stat {
        var info = stat()
        try retryingOnInterrupt("fstat", path: path) { fstat(rawValue, &info) }
        return info
    }

    /// Flushes the file's data and metadata to the disk (`fsync(2)`).
    /// - Parameter path: names the file in the error.
    package func sync(path: String? = nil) throws(SystemCallError) {
        try retryingOnInterrupt("fsync", path: path) { fsync(rawValue) }
    }

    /// Waits at most `milliseconds` (forever when negative) until there is something to read or the other end
    /// hung up. False when the time ran out or a signal cut the wait short, which callers absorb in their own
    /// deadline loop; true on any other failure, so that the read which follows reports it.
    package func waitForInput(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        return ready > 0 || (ready < 0 && errno != EINTR)
    }

    /// Turns `O_NONBLOCK` on or off.
    package func setNonBlocking(_ on: Bool) {
        let flags = fcntl(rawValue, F_GETFL)
        _ = fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// Marks the descriptor close-on-exec, for descriptors made by calls that cannot do it themselves.
    package func setCloseOnExec() {
        _ = fcntl(rawValue, F_SETFD, FD_CLOEXEC)
    }
}
