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
        source = DispatchSource.makeReadSource(fileDescriptor: listener.rawValue,
                                               queue: DispatchQueue(label: "chest.control"))
        source.setEventHandler {
            while true {
                let accepted = accept(listener.rawValue, nil, nil)
                guard accepted >= 0 else { return }
                let fd = FileDescriptor(rawValue: accepted)
                fd.setCloseOnExec()
                guard UnixSocket.peerUID(fd) == getuid() else {
                    log.warning("control socket: refused a client of another user")
                    fd.close()
                    continue
                }
                ControlConnection(fd: fd, onRequest: onRequest).start()
            }
        }
        source.setCancelHandler { listener.close() }
        source.resume()
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
    private let queue = DispatchQueue(label: "chest.control.connection")
    private let state = Mutex(State())
    private let onRequest: @Sendable (ControlConnection, Data) -> Void

    private struct State {
        var buffer = Data()
        var answered = false
        var closed = false
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

    /// Sends one line (a newline is added). Writes happen on the connection's own queue, never the caller's.
    public func send(_ line: Data, thenClose: Bool = false) {
        queue.async { [self] in
            guard !state.withLock({ $0.closed }) else { return }
            var data = line
            data.append(0x0a)
            fd.setNonBlocking(false)
            UnixSocket.setTimeouts(fd, seconds: 5)
            let failed = (try? fd.writeAll(data)) == nil
            fd.setNonBlocking(true)
            if failed || thenClose { closeNow() }
        }
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

    private func fail(_ why: String) {
        state.withLock { $0.answered = true }
        let reply = #"{"ok":false,"error":"\#(why)"}"#
        send(Data(reply.utf8), thenClose: true)
    }

    private func closeNow() {
        let (source, timer, handler) = state.withLock { state -> ((any DispatchSourceRead)?, (any DispatchSourceTimer)?, (@Sendable () -> Void)?) in
            guard !state.closed else { return (nil, nil, nil) }
            state.closed = true
            defer { state.source = nil; state.timer = nil; state.onClose = nil }
            return (state.source, state.timer, state.onClose)
        }
        guard let source else { return }
        timer?.cancel()
        source.setCancelHandler { [fd] in fd.close() }
        source.cancel()
        handler?()
    }
}
