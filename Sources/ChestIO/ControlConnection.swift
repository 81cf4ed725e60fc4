import ChestCore
@preconcurrency import Dispatch
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// One client of the control socket.
package final class ControlConnection: Sendable {
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
    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closedAlready = state.withLock { state in
            if !state.closed { state.onClose = handler }
            return state.closed
        }
        if closedAlready { handler() }
    }

    /// Sends one line (a newline is added), without blocking: a client that does not read is dropped once
    /// `outboxLimit` bytes wait for it, or its lines have waited `ControlServer.idleTimeout` seconds.
    package func send(_ line: Data, thenClose: Bool = false) {
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
            if stalled {
                closeNow()
                return
            }
            flush()
        }
    }

    static let outboxLimit = 256 * 1024

    /// Writes what the client will take now; waits for it to read the rest.
    private func flush() {
        let (pending, closeWhenSent) = state.withLock { ($0.outbox, $0.closeWhenSent) }
        var written = 0
        while written < pending.count {
            let sent = pending[(pending.startIndex + written)...].withUnsafeBytes { buffer in
                Result { () throws(SystemCallError) in try fd.send(buffer) }
            }
            guard case let .success(count) = sent else {
                closeNow()
                return
            }
            guard let count else { break }
            written += count
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
            state.withLock {
                $0.writer?.cancel()
                $0.writer = nil
            }
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var line =
            (try? encoder.encode(["ok": JSONValue.bool(false), "error": .string(why)])) ?? Data(#"{"ok":false}"#.utf8)
        line.append(0x0a)
        return line
    }

    /// Closes the connection (after pending sends).
    package func close() { queue.async { [self] in closeNow() } }

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
            if count == 0 {
                closeNow()
                return
            }
            let line: Data? = state.withLock { state in
                guard !state.answered else { return nil }  // after the request, the client only hangs up
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
        let (source, timer, handler) = state.withLock {
            state -> ((any DispatchSourceRead)?, (any DispatchSourceTimer)?, (@Sendable () -> Void)?) in
            guard !state.closed else { return (nil, nil, nil) }
            state.closed = true
            state.writer?.cancel()
            defer {
                state.source = nil
                state.timer = nil
                state.onClose = nil
                state.writer = nil
                state.outbox = Data()
            }
            return (state.source, state.timer, state.onClose)
        }
        guard let source else { return }
        timer?.cancel()
        source.setCancelHandler { [fd] in fd.close() }
        source.cancel()
        handler?()
    }
}
