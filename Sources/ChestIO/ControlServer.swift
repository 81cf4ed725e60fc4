import ChestCore
@preconcurrency import Dispatch
import Foundation
import Glibc
import Synchronization

/// The daemon's control socket (docs/DESIGN.md "Reliability and security"): owner only, one JSON request line per connection, size-capped,
/// idle clients dropped.
///
/// It refuses to start when another daemon answers on the path, replaces a stale socket file left by a crash,
/// binds under umask 077 in a directory only the owner can enter, and checks each peer's uid with `SO_PEERCRED`.
public final class ControlServer: Sendable {
    private let path: String
    private let listener: FileDescriptor
    private let source: any DispatchSourceRead

    /// Seconds a client may take to send its request.
    public static let idleTimeout = 10

    /// Binds and listens at `path`. `onRequest` gets each complete request line on a connection.
    public init(path: String, log: Log,
                onRequest: @escaping @Sendable (ControlConnection, Data) -> Void) throws(ChestError) {
        self.path = path
        let directory = directoryName(path)
        do {
            try Directory.create(directory)
        } catch {
            throw ChestError("cannot create the socket directory: \(error)")
        }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw ChestError("the socket directory \(directory) is open to other users; use a private directory (mode 0700) with --socket")
        }
        if let fd = try? UnixSocket.connect(to: path) {
            fd.close()
            throw ChestError("another chestd is already running on \(path); stop it first, or give this one its own --socket")
        }
        unlink(path)    // a stale socket from a daemon that died: nobody answers on it
        let listener: FileDescriptor
        do {
            listener = try UnixSocket.make(SOCK_STREAM)
        } catch {
            throw ChestError("\(error)")
        }
        let previous = umask(0o077)
        defer { umask(previous) }
        do throws(SystemCallError) {
            let address = try UnixSocketAddress(path: path)
            let result = address.withSockaddr { bind(listener.rawValue, $0, $1) }
            guard result == 0, listen(listener.rawValue, 128) == 0 else { throw SystemCallError("bind", path: path) }
        } catch {
            listener.close()
            throw ChestError("cannot listen on the control socket: \(error)")
        }
        listener.setNonBlocking(true)
        self.listener = listener
        let connections = ConnectionTable()
        let queue = DispatchQueue(label: "chest.control")
        source = DispatchSource.makeReadSource(fileDescriptor: listener.rawValue, queue: queue)
        // A descriptor kept in reserve: when the process runs out, it is freed to accept the waiting client and
        // tell it why, instead of leaving the listener readable and the loop spinning on EMFILE.
        let reserve = Mutex(Self.openReserve())
        let exhausted = Atomic(false)
        let source = self.source
        @Sendable func acceptWaiting() {
            while true {
                let accepted = accept(listener.rawValue, nil, nil)
                if accepted < 0 {
                    guard errno == EMFILE || errno == ENFILE else { return }
                    let freed = reserve.withLock { reserve -> Bool in
                        guard let fd = reserve else { return false }
                        fd.close()
                        reserve = nil
                        return true
                    }
                    let spare = freed ? accept(listener.rawValue, nil, nil) : -1
                    if spare >= 0 {
                        Self.refuse(FileDescriptor(rawValue: spare), "chestd is out of file descriptors; try again shortly")
                    }
                    // The daemon's own work (reading a message file) needs descriptors more than a silent client.
                    connections.dropOldestSilent("dropped: chestd is out of file descriptors")
                    reserve.withLock { $0 = $0 ?? Self.openReserve() }
                    if !exhausted.exchange(true, ordering: .relaxed) {
                        log.warning("control socket: out of file descriptors; dropping silent clients, refusing new ones for a moment")
                    }
                    // Back off rather than spin while the listener stays readable. Then look again ourselves: the
                    // source may not fire once resumed, since nothing new arrives while the backlog is full, and a
                    // client blocked in connect(2) would wait for ever.
                    source.suspend()
                    queue.asyncAfter(deadline: .now() + .milliseconds(200)) {
                        source.resume()
                        acceptWaiting()
                    }
                    return
                }
                exhausted.store(false, ordering: .relaxed)
                let fd = FileDescriptor(rawValue: accepted)
                fd.setCloseOnExec()
                guard UnixSocket.peerUID(fd) == getuid() else {
                    log.warning("control socket: refused a client of another user")
                    Self.refuse(fd, "this chestd admits its owner only (uid \(getuid()))")
                    continue
                }
                let connection = ControlConnection(fd: fd, onRequest: onRequest)
                guard connections.admit(connection) else {
                    Self.refuse(fd, "chestd has \(ControlServer.maximumConnections) connections open; try again shortly")
                    continue
                }
                connection.start()
            }
        }
        source.setEventHandler(handler: acceptWaiting)
        source.setCancelHandler { listener.close() }
        source.resume()
    }

    /// The most connections open at once. Beyond it the oldest client still silent is dropped for the newcomer;
    /// when every one is busy (watching, or waiting for its answer), the newcomer is told to try again.
    public static let maximumConnections = 64

    private static func openReserve() -> FileDescriptor? {
        try? FileDescriptor.open("/dev/null", O_RDONLY)
    }

    /// Writes one JSON error line, without waiting, and closes.
    static func refuse(_ fd: FileDescriptor, _ why: String) {
        fd.setNonBlocking(true)
        _ = try? fd.writeAll(ControlConnection.errorLine(why))
        fd.close()
    }

    /// Stops accepting and removes the socket file.
    public func stop() {
        source.cancel()
        unlink(path)
    }
}
