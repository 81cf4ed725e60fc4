import CGPSD
import ChestCore
import ChestIO
@preconcurrency import Dispatch
import Foundation
import Glibc
import Synchronization

/// What the GPS reader reports.
public enum GPSEvent: Sendable, Equatable {
    /// A connection to gpsd was made and its reports are being watched.
    case connected(server: String)
    /// gpsd could not be reached, or the connection was lost; sent once per loss, not once per retry.
    case disconnected(server: String, reason: String)
    /// One TPV report, fix or not (mode 0 or 1 included), or a mode-0 fix when the receiver went away.
    case fix(Fix)
    /// gpsd named the device feeding it (DEVICE or DEVICES), or it went away (`nil`).
    case receiver(FixSource?)
}

/// Reads gpsd through libgps on a dedicated thread, because libgps blocks and must never hold a thread of the
/// Swift concurrency pool. It reconnects with backoff (1, 2, 4, 8, then every 10 s) for as long as it runs.
public final class GPSReader: Sendable {
    /// `host:port`, as the events name it.
    public let server: String
    private let host: String
    private let port: String
    private let log: Log
    private let onEvent: @Sendable (GPSEvent) -> Void
    private let receivers: ReceiverSource
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
    }

    /// The longest pause between reconnection attempts (docs/DESIGN.md "Reliability and security"), in seconds.
    public static let maximumBackoff = 10.0
    /// How long one wait for gpsd lasts; it bounds how late `stop()` is noticed.
    static let tick: Int32 = 1_000_000
    /// gpsd's longest JSON report (GPS_JSON_RESPONSE_MAX, private to gpsd in 3.22).
    static let lineCapacity = 10_240

    /// - Parameters:
    ///   - host: gpsd's host name or address, usually "localhost".
    ///   - port: gpsd's port, usually "2947".
    ///   - onEvent: called on the reader's own thread, one event at a time, in order; it must not block for long
    ///     (gpsd drops clients that stop reading).
    ///   - receivers: places the devices gpsd names (an injectable sysfs root).
    public init(host: String, port: String, log: Log, receivers: ReceiverSource = ReceiverSource(),
                onEvent: @escaping @Sendable (GPSEvent) -> Void) {
        self.receivers = receivers
        self.host = host
        self.port = port
        self.server = "\(host):\(port)"
        self.log = log
        self.onEvent = onEvent
    }

    /// Starts the reader thread. Calling it again, or after `stop()`, does nothing.
    public func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopping
        }
        guard first else { return }
        // libgps writes with write(2), not send(MSG_NOSIGNAL): the second write to a dead gpsd would kill us.
        signal(SIGPIPE, SIG_IGN)
        state.withLock { $0.running = true }
        let thread = Thread { [self] in run() }
        thread.name = "gpsd-reader"
        thread.start()
    }

    /// Stops the reader and returns once its thread has closed the connection and ended, within about 1 s.
    /// No event is delivered after it returns (unless it is called from `onEvent` itself).
    public func stop() {
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
            let lost = read(data)
            _ = gps_close(data)
            guard let lost else { break }
            reportedDown = true
            log.debug("gpsd \(server) lost: \(lost)")
            onEvent(.disconnected(server: server, reason: lost))
            pause(&backoff)
        }
    }

    /// What the latest SKY said, kept for the TPVs that follow it (a TPV never carries the satellites).
    private struct LatestSky {
        var satellitesUsed: Int?
        var summary: SkySummary?
        var serial = 0
    }

    /// One line from gpsd: the TPV and SKY of every epoch are read without libgps when they are as gpsd writes
    /// them (docs/DESIGN.md "The fast path for TPV and SKY"); any other line goes to libgps, once.
    private func take(_ bytes: ArraySlice<UInt8>, _ data: UnsafeMutablePointer<gps_data_t>, _ line: UnsafeMutablePointer<CChar>,
                      _ sky: inout LatestSky) {
        switch bytes.withUnsafeBytes(GPSDReport.parse) {
        case .tpv(let report):
            onEvent(.fix(Fix(report, satellitesUsed: sky.satellitesUsed, sky: sky.summary, receivedAt: MonotonicClock.now())))
            return
        case .sky(let report):
            sky.serial += 1
            sky.satellitesUsed = report.satellitesUsed
            sky.summary = report.summary(serial: sky.serial)
            return
        case nil:
            break
        }
        for (index, byte) in bytes.enumerated() { line[index] = CChar(bitPattern: byte) }
        line[bytes.count] = 0
        data.pointee.set = 0
        var rest: UnsafePointer<CChar>?
        _ = libgps_json_unpack(line, data, &rest)
        let set = data.pointee.set
        if let fix = Fix(UnsafePointer(data), satellitesUsed: sky.satellitesUsed, sky: sky.summary,
                         receivedAt: MonotonicClock.now()) {
            onEvent(.fix(fix))
        } else if set & SATELLITE_SET != 0 {
            // libgps 3.22 counts used satellites from the SKY's array: without one, 0 means unknown.
            let listed = data.pointee.satellites_visible > 0
            sky.serial += 1
            sky.satellitesUsed = listed ? Int(data.pointee.satellites_used) : nil
            sky.summary = listed ? SkySummary(UnsafePointer(data), serial: sky.serial) : nil
        } else if set & DEVICE_SET != 0, data.pointee.dev.activated.tv_sec != 0 {
            onEvent(.receiver(identify(data.pointee.dev)))
        } else if set & DEVICELIST_SET != 0 {
            let devices = data.pointee.devices
            if devices.ndevices > 0 {
                let first = withUnsafeBytes(of: devices.list) { $0.bindMemory(to: devconfig_t.self)[0] }
                onEvent(.receiver(identify(first)))
            }
        } else if GPSReader.isDeactivation(String(cString: line)) {
            // The serial goes on counting: a SKY after the receiver comes back is a new one.
            sky.satellitesUsed = nil
            sky.summary = nil
            onEvent(.receiver(nil))
            log.notice("gpsd \(server): receiver deactivated")
            onEvent(.fix(Fix(mode: 0, receivedAt: MonotonicClock.now())))
        }
    }

    /// Reads reports until the connection is lost (returning why) or the reader is stopped (returning nil).
    ///
    /// The lines are read here: a TPV or SKY as gpsd writes it by `GPSDReport`, any other line unpacked once by
    /// `libgps_json_unpack`, never by `gps_read`: its
    /// `gps_unpack` loops forever on a report it cannot parse (docs/DESIGN.md "libgps calls"), which would leave
    /// this thread spinning with no fix and no error.
    private func read(_ data: UnsafeMutablePointer<gps_data_t>) -> String? {
        let line = UnsafeMutablePointer<CChar>.allocate(capacity: GPSReader.lineCapacity + 1)
        defer { line.deallocate() }
        let fd = data.pointee.gps_fd
        // Non-blocking, so a read that finds nothing more returns at once instead of hanging.
        FileDescriptor(rawValue: fd).setNonBlocking(true)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var sky = LatestSky()
        var discarding = false
        while !stopping {
            errno = 0
            guard readable(fd) else {
                if errno != 0, errno != EINTR { return "waiting for gpsd: \(Errno.current)" }
                continue
            }
            errno = 0
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return "gpsd closed the connection" }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return "reading from gpsd: \(Errno.current)"
            }
            pending += chunk[..<count]
            // The lines read are removed once, after the loop, not one by one.
            var next = pending.startIndex
            while let end = pending[next...].firstIndex(of: UInt8(ascii: "\n")) {
                let bytes = pending[next..<end]
                defer { next = end + 1 }
                // gpsd never writes a longer line; one that is longer is not gpsd's, and is dropped whole.
                guard !discarding, bytes.first == UInt8(ascii: "{"), bytes.count <= GPSReader.lineCapacity else {
                    discarding = false
                    continue
                }
                take(bytes, data, line, &sky)
            }
            pending.removeSubrange(..<next)
            if pending.count > GPSReader.lineCapacity {
                pending.removeAll(keepingCapacity: true)
                discarding = true
            }
        }
        return nil
    }

    /// The source of a device gpsd reports: its path and driver, and what /sys says of it.
    private func identify(_ device: devconfig_t) -> FixSource {
        var device = device
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return receivers.identify(path: text(&device.path), driver: text(&device.driver), subtype: text(&device.subtype))
    }

    /// Whether a gpsd JSON line is a DEVICE report of a receiver going away (`"activated":0`).
    ///
    /// Matched on the text: libgps 3.22 fails to unpack `"activated":0` (it expects a time string), so such a
    /// DEVICE message sets no DEVICE_SET bit, only PACKET_SET.
    static func isDeactivation(_ line: String) -> Bool {
        line.hasPrefix(#"{"class":"DEVICE","#)
            && (line.contains(#""activated":0,"#) || line.contains(#""activated":0}"#))
    }

    /// Waits up to one tick for `fd` to become readable.
    private func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, GPSReader.tick / 1000) > 0
    }

    /// Waits `backoff` seconds, or less if stopped, then doubles it up to the maximum.
    private func pause(_ backoff: inout Double) {
        guard !stopping else { return }
        _ = wake.wait(timeout: .now() + backoff)
        backoff = min(backoff * 2, GPSReader.maximumBackoff)
    }
}
