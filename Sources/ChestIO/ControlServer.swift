import ChestCore
@preconcurrency import Dispatch
import Dispatch
import FoundationEssentials
import Glibc

/// The daemon's control socket (docs/DESIGN.md "Reliability and security"): owner only, one JSON request line per connection, size-capped,
/// idle clients dropped.
///
/// It refuses to start when another daemon answers on the path, replaces a stale socket file left by a crash,
/// binds under umask 077 in a directory only the owner can enter, and checks each peer's uid with `SO_PEERCRED`.
package final class ControlServer: Sendable {
    private let path: String
    private let listener: FileDescriptor
    private let source: any DispatchSourceRead

    /// Seconds a client may take to send its request.
    package static let idleTimeout = 10

    /// Binds and listens at `path`. `onRequest` gets each complete request line on a connection.
    package init(
        path: String, log: Log,
        onRequest: @escaping @Sendable (ControlConnection, Data) -> Void
    ) throws(ChestError) {
        self.path = path
        let directory = directoryName(path)
        do {
            try Directory.create(directory)
        } catch {
            throw ChestError("cannot create the socket directory: \(error)")
        }
        if let reason = SocketDirectory.whyUntrusted(directory) {
            throw ChestError(
                "the socket directory \(directory) \(reason); use a private directory (mode 0700) with --socket")
        }
        if let fd = try? UnixSocket.connect(to: path) {
            fd.close()
            throw ChestError(
                "another chestd is already running on \(path); stop it first, or give this one its own --socket")
        }
        unlink(path)  // a stale socket from a daemon that died: nobody answers on it
        let listener: FileDescriptor
        do {
            listener = try UnixSocket.make(SOCK_STREAM)
        } catch {
            throw ChestError("\(error)")
        }
        let previous = umask(0o077)
        defer { umask(previous) }
        do throws(SystemCallError) {
            try listener.listen(at: try UnixSocketAddress(path: path), backlog: 128, path: path)
        } catch {
            listener.close()
            throw ChestError("cannot listen on the control socket: \(error)")
        }
        listener.setNonBlocking(true)
        self.listener = listener
        let acceptor = ControlAcceptor(listener: listener, log: log, onRequest: onRequest)
        source = acceptor.source
        acceptor.start()
    }

    /// The most connections open at once. Beyond it the oldest client still silent is dropped for the newcomer;
    /// when every one is busy (watching, or waiting for its answer), the newcomer is told to try again.
    package static let maximumConnections = 64

    /// Stops accepting and removes the socket file.
    package func stop() {
        source.cancel()
        unlink(path)
    }
}
