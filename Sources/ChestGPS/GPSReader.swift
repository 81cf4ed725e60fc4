import CGPSD
import ChestCore
import ChestIO
@preconcurrency import Dispatch
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// What the GPS reader reports.
package enum GPSEvent: Sendable, Equatable {
    /// A connection to gpsd was made and its reports are being watched.
    case connected(server: String)
    /// gpsd could not be reached, or the connection was lost; sent once per loss, not once per retry.
    case disconnected(server: String, reason: String)
    /// One TPV report, fix or not (mode 0 or 1 included), or a mode-0 fix when the receiver went away.
    case fix(Fix)
    /// gpsd named the device feeding it (DEVICE or DEVICES), or it went away (`nil`).
    case receiver(FixSource?)
}

/// Connects to gpsd through libgps on a dedicated thread, because libgps blocks (a connect has no timeout) and must
/// never hold a thread of the Swift concurrency pool. It reconnects with backoff (1, 2, 4, 8, then every 10 s) for
/// as long as it runs. Each connection is read on that thread, or handed to the caller's loop (`onConnection`).
package final class GPSReader: Sendable {
    /// `host:port`, as the events name it.
    package let server: String
    private let host: String
    private let port: String
    private let log: Log
    private let onEvent: @Sendable (GPSEvent) -> Void
    private let onConnection: (@Sendable (GPSDConnection) -> Void)?
    private let receivers: ReceiverSource
    private let beforeEachPause: (@Sendable () -> Void)?
    private let state = Mutex(State())
    /// Signalled by `stop()` to cut a backoff wait short.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    private struct State {
        var started = false
        var stopping = false
        var running = false
        var thread: pthread_t?
        /// Why the loop that was handed the connection ended it.
        var lost: String?
    }

    /// The longest pause between reconnection attempts (docs/DESIGN.md "Reliability and security"), in seconds.
    package static let maximumBackoff = 10.0
    /// How long one wait for gpsd lasts; it bounds how late `stop()` is noticed.
    static let tick: Int32 = 1_000_000

    /// - Parameters:
    ///   - host: gpsd's host name or address, usually "localhost".
    ///   - port: gpsd's port, usually "2947".
    ///   - onEvent: called on the reader's own thread, one event at a time, in order; it must not block for long
    ///     (gpsd drops clients that stop reading).
    ///   - receivers: places the devices gpsd names (an injectable sysfs root).
    ///   - onConnection: when given, each connection made is handed to it after `.connected`, to be read by the
    ///     caller's own loop (which then gets the reports from `readAvailable`, not `onEvent`) until that loop
    ///     calls `end` on it. Without it, the reader's thread reads each connection and reports everything
    ///     through `onEvent`.
    ///   - beforeEachPause: called on the reader's thread after each failed attempt or lost connection, before it
    ///     waits to try again: chestd hands back the code an attempt ran (libgps, the resolver), which nothing on
    ///     the loop would, since only the first failure of a loss reaches it (docs/BENCHMARKS.md "Memory").
    package init(
        host: String, port: String, log: Log, receivers: ReceiverSource = ReceiverSource(),
        onEvent: @escaping @Sendable (GPSEvent) -> Void,
        onConnection: (@Sendable (GPSDConnection) -> Void)? = nil,
        beforeEachPause: (@Sendable () -> Void)? = nil
    ) {
        self.receivers = receivers
        self.beforeEachPause = beforeEachPause
        self.onConnection = onConnection
        self.host = host
        self.port = port
        self.server = "\(host):\(port)"
        self.log = log
        self.onEvent = onEvent
    }

    /// Starts the reader thread. Calling it again, or after `stop()`, does nothing.
    package func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopping
        }
        guard first else { return }
        state.withLock { $0.running = true }
        OSThread.start(name: "gpsd-reader") { [self] in run() }
    }

    /// Stops the reader and returns once its thread has closed the connection and ended, within about 1 s.
    /// No event is delivered after it returns (unless it is called from `onEvent` itself). A loop that was handed
    /// a connection must have stopped reading it first: the reader closes it.
    package func stop() {
        let (mustWait, onReaderThread) = state.withLock { state in
            state.stopping = true
            return (state.running, state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        wake.signal()
        guard mustWait, !onReaderThread else { return }
        // gps_open's connect(2) has no timeout; give up waiting rather than hang on an unreachable remote host.
        _ = ended.wait(timeout: .now() + 5)
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        defer {
            state.withLock { $0.running = false }
            ended.signal()
        }
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        var reportedDown = false
        var backoff = 1.0
        // One `.disconnected` per loss, however many retries fail after it.
        func reportDown(_ reason: String) {
            guard !reportedDown else { return }
            reportedDown = true
            log.warning("gpsd \(server) unavailable: \(reason)")
            onEvent(.disconnected(server: server, reason: reason))
        }
        while !stopping {
            data.initialize(to: gps_data_t())
            errno = 0
            guard gps_open(host, port, data) == 0 else {
                // errno holds a negative NL_* code here; never gps_close after a failed open (docs/DESIGN.md "libgps calls").
                let reason = String(cString: gps_errstr(errno))
                log.debug("gpsd \(server): \(reason); next try in \(Int(backoff)) s")
                reportDown(reason)
                pause(&backoff)
                continue
            }
            errno = 0
            guard gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
                let reason = "cannot start watching: \(Errno.current)"
                _ = gps_close(data)
                reportDown(reason)
                pause(&backoff)
                continue
            }
            reportedDown = false
            backoff = 1
            // The engine's gpsd event is the line the log keeps; this one only adds detail under -v.
            log.debug("gpsd \(server) connected")
            onEvent(.connected(server: server))
            let connection = GPSDConnection(server: server, data: data, receivers: receivers, log: log) {
                [self] reason in
                state.withLock { $0.lost = reason }
                wake.signal()
            }
            let lost: String?
            if let onConnection {
                onConnection(connection)
                lost = waitForEnd()
            } else {
                lost = drive(connection)
            }
            connection.close()
            guard let lost else { break }
            reportedDown = true
            log.debug("gpsd \(server) lost: \(lost)")
            onEvent(.disconnected(server: server, reason: lost))
            pause(&backoff)
        }
    }

    /// Reads a connection on this thread until it is lost (returning why) or the reader is stopped (nil).
    private func drive(_ connection: GPSDConnection) -> String? {
        while !stopping {
            guard connection.descriptor.waitForInput(milliseconds: GPSReader.tick / 1000) else { continue }
            if let lost = connection.readAvailable(onEvent) { return lost }
        }
        return nil
    }

    /// Waits until the loop a connection was handed to ends it (returning why) or the reader is stopped (nil).
    private func waitForEnd() -> String? {
        // Wait first, then look: each `end` signals once, and a signal left over would cut the next backoff short.
        while true {
            wake.wait()
            let (stopping, lost) = state.withLock { state in
                defer { state.lost = nil }
                return (state.stopping, state.lost)
            }
            if stopping { return nil }
            if let lost { return lost }
        }
    }

    /// Waits `backoff` seconds, or less if stopped, then doubles it up to the maximum.
    private func pause(_ backoff: inout Double) {
        guard !stopping else { return }
        beforeEachPause?()
        _ = wake.wait(timeout: .now() + backoff)
        backoff = min(backoff * 2, GPSReader.maximumBackoff)
    }
}
