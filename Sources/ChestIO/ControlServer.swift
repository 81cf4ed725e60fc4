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
        source.setEventHandler {
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
                    // Back off rather than spin while the listener stays readable.
                    source.suspend()
                    queue.asyncAfter(deadline: .now() + .milliseconds(200)) { source.resume() }
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

/// One client of the control socket.
public final class ControlConnection: Sendable {
    private let fd: FileDescriptor
    let queue = DispatchQueue(label: "chest.control.connection")
    let state = Mutex(State())
    private let onRequest: @Sendable (ControlConnection, Data) -> Void

    struct State {
        var buffer = Data()
        var answered = false
        var closed = false
        /// Lines not yet taken by a client that reads slowly or not at all.
        var outbox = Data()
        var closeWhenSent = false
        var writer: (any DispatchSourceWrite)?
        var source: (any DispatchSourceRead)?
        var timer: (any DispatchSourceTimer)?
        var onClose: (@Sendable () -> Void)?
    }

    init(fd: FileDescriptor, onRequest: @escaping @Sendable (ControlConnection, Data) -> Void) {
        self.fd = fd
        self.onRequest = onRequest
    }

    func start() {
        fd.setNonBlocking(true)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd.rawValue, queue: queue)
        source.setEventHandler { [self] in readAvailable() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(ControlServer.idleTimeout))
        timer.setEventHandler { [self] in
            let waiting = state.withLock { !$0.answered }
            if waiting { fail("no request within \(ControlServer.idleTimeout) s") }
        }
        state.withLock {
            $0.source = source
            $0.timer = timer
        }
        source.resume()
        timer.resume()
    }

    /// Calls `handler` once when the client goes away (or the connection is closed).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closedAlready = state.withLock { state in
            if !state.closed { state.onClose = handler }
            return state.closed
        }
        if closedAlready { handler() }
    }

    /// Sends one line (a newline is added), without blocking: a client that does not read is dropped once
    /// `outboxLimit` bytes wait for it, or its lines have waited `ControlServer.idleTimeout` seconds.
    public func send(_ line: Data, thenClose: Bool = false) {
        queue.async { [self] in
            let stalled = state.withLock { state -> Bool? in
                guard !state.closed else { return nil }
                let behind = !state.outbox.isEmpty
                state.outbox.append(line)
                state.outbox.append(0x0a)
                state.closeWhenSent = state.closeWhenSent || thenClose
                // One large reply (a long list) is fine; lines piling up behind unread ones are not.
                return behind && state.outbox.count > Self.outboxLimit
            }
            guard let stalled else { return }
            if stalled { closeNow(); return }
            flush()
        }
    }

    static let outboxLimit = 256 * 1024

    /// Writes what the client will take now; waits for it to read the rest.
    private func flush() {
        let (pending, closeWhenSent) = state.withLock { ($0.outbox, $0.closeWhenSent) }
        var written = 0
        while written < pending.count {
            let count = pending[(pending.startIndex + written)...].withUnsafeBytes { buffer in
                Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 { written += count; continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            closeNow()
            return
        }
        let empty = state.withLock { state -> Bool in
            state.outbox.removeFirst(written)
            return state.outbox.isEmpty
        }
        if empty {
            if closeWhenSent { closeNow() }
            return
        }
        guard state.withLock({ $0.writer == nil }) else { return }
        let writer = DispatchSource.makeWriteSource(fileDescriptor: fd.rawValue, queue: queue)
        writer.setEventHandler { [self] in
            state.withLock { $0.writer?.cancel(); $0.writer = nil }
            flush()
        }
        state.withLock { $0.writer = writer }
        writer.resume()
        let before = state.withLock { $0.outbox.count }
        queue.asyncAfter(deadline: .now() + .seconds(ControlServer.idleTimeout)) { [self] in
            // Still as much waiting as then, or more: the client is not reading.
            if state.withLock({ !$0.closed && $0.outbox.count >= before && $0.writer != nil }) { closeNow() }
        }
    }

    /// One `{"ok":false,"error":…}` line, newline included.
    static func errorLine(_ why: String) -> Data {
        var line = (try? JSONSerialization.data(withJSONObject: ["ok": false, "error": why], options: [.sortedKeys]))
            ?? Data(#"{"ok":false}"#.utf8)
        line.append(0x0a)
        return line
    }

    /// Closes the connection (after pending sends).
    public func close() { queue.async { [self] in closeNow() } }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do throws(SystemCallError) {
                count = try fd.read(into: &chunk)
            } catch {
                if error.errno != .wouldBlock { closeNow() }
                return
            }
            if count == 0 { closeNow(); return }
            let line: Data? = state.withLock { state in
                guard !state.answered else { return nil }     // after the request, the client only hangs up
                state.buffer.append(contentsOf: chunk[..<count])
                guard let newline = state.buffer.firstIndex(of: 0x0a) else { return nil }
                state.answered = true
                return state.buffer[..<newline]
            }
            if let line {
                onRequest(self, Data(line))
            } else if state.withLock({ !$0.answered && $0.buffer.count > ControlRequest.sizeLimit }) {
                fail("request over \(ControlRequest.sizeLimit) bytes")
                return
            }
        }
    }

    func fail(_ why: String) {
        state.withLock { $0.answered = true }
        send(Self.errorLine(why).dropLast(), thenClose: true)
    }

    private func closeNow() {
        let (source, timer, handler) = state.withLock { state -> ((any DispatchSourceRead)?, (any DispatchSourceTimer)?, (@Sendable () -> Void)?) in
            guard !state.closed else { return (nil, nil, nil) }
            state.closed = true
            state.writer?.cancel()
            defer { state.source = nil; state.timer = nil; state.onClose = nil; state.writer = nil; state.outbox = Data() }
            return (state.source, state.timer, state.onClose)
        }
        guard let source else { return }
        timer?.cancel()
        source.setCancelHandler { [fd] in fd.close() }
        source.cancel()
        handler?()
    }
}

/// The control socket's open connections, oldest first, for `ControlServer.maximumConnections`.
final class ConnectionTable: Sendable {
    private let connections = Mutex<[ControlConnection]>([])

    /// Drops the oldest connection that has not sent its request yet, if any.
    func dropOldestSilent(_ why: String) {
        let silent = connections.withLock { connections -> ControlConnection? in
            connections.firstIndex(where: \.isSilent).map { connections.remove(at: $0) }
        }
        silent?.drop(why)
    }

    /// Makes room for `connection` and records it; false when every open connection is busy.
    func admit(_ connection: ControlConnection) -> Bool {
        let evicted = connections.withLock { connections -> ControlConnection?? in
            connections.removeAll { $0.isClosed }
            var evicted: ControlConnection?
            if connections.count >= ControlServer.maximumConnections {
                guard let index = connections.firstIndex(where: \.isSilent) else { return .none }
                evicted = connections.remove(at: index)
            }
            connections.append(connection)
            return .some(evicted)
        }
        guard let evicted else { return false }
        evicted?.drop("dropped: no request while \(ControlServer.maximumConnections) connections were open")
        return true
    }
}

extension ControlConnection {
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Connected but has sent no request yet.
    var isSilent: Bool { state.withLock { !$0.closed && !$0.answered && $0.buffer.isEmpty } }

    /// Answers with an error and closes.
    func drop(_ why: String) { queue.async { [self] in fail(why) } }
}
