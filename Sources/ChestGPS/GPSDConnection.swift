import CGPSD
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// One open connection to gpsd, watching its JSON reports: it reads what gpsd sent and turns the lines into
/// events. It never blocks: its socket is non-blocking, so whichever loop owns it polls `descriptor` and calls
/// `readAvailable` when there is something to read.
///
/// Owned by one thread at a time: the `GPSReader` that opened it, then, if it was handed over, the loop that
/// reads it until it calls `end`. That hand-over is why it is `@unchecked Sendable`.
package final class GPSDConnection: @unchecked Sendable {
    /// `host:port`, as the events name it.
    package let server: String
    /// The socket to poll for reading.
    package let descriptor: FileDescriptor
    private let data: UnsafeMutablePointer<gps_data_t>
    private let receivers: ReceiverSource
    private let log: Log
    /// What stamps each fix's `receivedAt`: the loop's clock.
    private let clock: any LoopClock
    /// Called once, by `end`, with the reason the connection was lost.
    private let onEnd: @Sendable (String) -> Void
    /// A line copied out for libgps, NUL-terminated.
    private let line = UnsafeMutablePointer<CChar>.allocate(capacity: GPSDConnection.lineCapacity + 1)
    private var chunk = [UInt8](repeating: 0, count: 4096)
    /// Bytes read that do not yet end in a newline.
    private var pending: [UInt8] = []
    private var sky = LatestSky()
    /// Set when a line outgrew `lineCapacity`: the rest of it is dropped, up to its newline.
    private var discarding = false
    private var ended = false
    /// The `gps_data_t` a line source allocated for itself (`init(server:lines:log:)`); a reader's is its own.
    private var ownedData: UnsafeMutablePointer<gps_data_t>?

    /// gpsd's longest JSON report (GPS_JSON_RESPONSE_MAX, private to gpsd in 3.22).
    static let lineCapacity = 10_240
    /// At most this many reads per `readAvailable`, so that a flood from gpsd cannot starve the loop's other work.
    static let readsPerCall = 16

    /// What the latest SKY said, kept for the TPVs that follow it (a TPV never carries the satellites).
    private struct LatestSky {
        var satellitesUsed: Int?
        var satellitesSeen: Int?
        var summary: SkySummary?
        var serial = 0
    }

    /// Takes over a `gps_data_t` that `gps_open` and `gps_stream` succeeded on.
    init(
        server: String, data: UnsafeMutablePointer<gps_data_t>, receivers: ReceiverSource, log: Log,
        clock: any LoopClock = SystemClock(), onEnd: @escaping @Sendable (String) -> Void
    ) {
        self.server = server
        self.data = data
        self.receivers = receivers
        self.log = log
        self.clock = clock
        self.onEnd = onEnd
        descriptor = FileDescriptor(rawValue: data.pointee.gps_fd)
        descriptor.setNonBlocking(true)
    }

    /// A connection that reads gpsd's JSON lines from `descriptor` (the read end of a pipe a test writes to)
    /// instead of gpsd's socket, through the same reading and parsing (docs/ARCHITECTURE.md "The daemon in
    /// process"). Its owner closes the descriptor; `end` only calls `onEnd`.
    package convenience init(
        server: String, lines descriptor: FileDescriptor, log: Log,
        receivers: ReceiverSource = ReceiverSource(), clock: any LoopClock = SystemClock(),
        onEnd: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        data.pointee.gps_fd = descriptor.rawValue
        self.init(server: server, data: data, receivers: receivers, log: log, clock: clock, onEnd: onEnd)
        ownedData = data
    }

    deinit {
        line.deallocate()
        ownedData?.deallocate()
    }

    /// Reads what gpsd has sent and reports each event in order, on the calling thread. Returns why the
    /// connection is lost (then it must be ended), or nil while it is up.
    ///
    /// The lines are read here: a TPV or SKY as gpsd writes it by `GPSDReport`, any other line unpacked once by
    /// `libgps_json_unpack`, never by `gps_read`: its `gps_unpack` loops forever on a report it cannot parse
    /// (docs/DESIGN.md "libgps calls"), which would leave the reading thread spinning with no fix and no error.
    package func readAvailable(_ report: (GPSEvent) -> Void) -> String? {
        for _ in 0..<GPSDConnection.readsPerCall {
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try descriptor.read(into: buffer) }
            }
            let count: Int
            switch read {
            case let .success(bytes): count = bytes
            case let .failure(error) where error.errno == .wouldBlock: return nil
            case let .failure(error): return "reading from gpsd: \(error.errno)"
            }
            if count == 0 { return "gpsd closed the connection" }
            takeLines(chunk[..<count], report)
            // A read that did not fill the chunk took all there was: poll, level-triggered, wakes the loop again
            // for what comes later, so asking once more would only cost a read that fails with EAGAIN per report
            // (docs/BENCHMARKS.md "The fix path's CPU").
            if count < chunk.count { return nil }
        }
        return nil
    }

    /// Tells the reader that opened the connection that it is lost, so that it closes it and connects again.
    /// The caller must not use the connection afterwards. Later calls do nothing.
    package func end(_ reason: String) {
        guard !ended else { return }
        ended = true
        onEnd(reason)
    }

    /// Closes the socket and frees libgps's state; only the reader calls it, once the connection is over.
    func close() {
        _ = gps_close(data)
    }

    /// Splits what was read into lines and takes each whole one.
    private func takeLines(_ bytes: ArraySlice<UInt8>, _ report: (GPSEvent) -> Void) {
        pending += bytes
        // The lines read are removed once, after the loop, not one by one.
        var next = pending.startIndex
        while let end = pending[next...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[next..<end]
            defer { next = end + 1 }
            // gpsd never writes a longer line; one that is longer is not gpsd's, and is dropped whole.
            guard !discarding, line.first == UInt8(ascii: "{"), line.count <= GPSDConnection.lineCapacity else {
                discarding = false
                continue
            }
            take(line, report)
        }
        pending.removeSubrange(..<next)
        if pending.count > GPSDConnection.lineCapacity {
            pending.removeAll(keepingCapacity: true)
            discarding = true
        }
    }

    /// One line from gpsd: the TPV and SKY of every epoch are read without libgps when they are as gpsd writes
    /// them (docs/DESIGN.md "The fast path for TPV and SKY"); any other line goes to libgps, once.
    private func take(_ bytes: ArraySlice<UInt8>, _ report: (GPSEvent) -> Void) {
        switch bytes.withUnsafeBytes(GPSDReport.parse) {
        case .tpv(let tpv):
            var fix = Fix(tpv, satellitesUsed: sky.satellitesUsed, sky: sky.summary, receivedAt: clock.monotonic())
            fix.satellitesSeen = sky.satellitesSeen
            report(.fix(fix))
            return
        case .sky(let reportedSky):
            sky.serial += 1
            sky.satellitesUsed = reportedSky.satellitesUsed
            sky.satellitesSeen = reportedSky.satellitesUsed == nil ? nil : reportedSky.visible
            sky.summary = reportedSky.summary(serial: sky.serial)
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
        if var fix = Fix(
            UnsafePointer(data), satellitesUsed: sky.satellitesUsed, sky: sky.summary,
            receivedAt: clock.monotonic())
        {
            fix.satellitesSeen = sky.satellitesSeen
            report(.fix(fix))
        } else if set & SATELLITE_SET != 0 {
            // libgps 3.22 counts used satellites from the SKY's array: without one, 0 means unknown.
            let listed = data.pointee.satellites_visible > 0
            sky.serial += 1
            sky.satellitesUsed = listed ? Int(data.pointee.satellites_used) : nil
            sky.satellitesSeen = listed ? Int(data.pointee.satellites_visible) : nil
            sky.summary = listed ? SkySummary(UnsafePointer(data), serial: sky.serial) : nil
        } else if set & DEVICE_SET != 0, data.pointee.dev.activated.tv_sec != 0 {
            report(.receiver(identify(data.pointee.dev)))
        } else if set & DEVICELIST_SET != 0 {
            let devices = data.pointee.devices
            if devices.ndevices > 0 {
                let first = withUnsafeBytes(of: devices.list) { $0.bindMemory(to: devconfig_t.self)[0] }
                report(.receiver(identify(first)))
            }
        } else if GPSDConnection.isDeactivation(String(cString: line)) {
            // The serial goes on counting: a SKY after the receiver comes back is a new one.
            sky.satellitesUsed = nil
            sky.satellitesSeen = nil
            sky.summary = nil
            report(.receiver(nil))
            log.notice("gpsd \(server): receiver deactivated")
            report(.fix(Fix(mode: 0, receivedAt: clock.monotonic())))
        }
    }

    /// The source of a device gpsd reports: its path and driver, and what /sys says of it.
    private func identify(_ device: devconfig_t) -> FixSource {
        var device = device
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        var source = receivers.identify(
            path: text(&device.path), driver: text(&device.driver), subtype: text(&device.subtype))
        source.cycle = Self.cycle(seconds: Int64(device.cycle.tv_sec), nanoseconds: Int64(device.cycle.tv_nsec))
        return source
    }

    /// The receiver's cycle from libgps's `timespec_t`, in seconds; nil when it is none. libgps 3.22's JSON reader
    /// stores the DEVICE report's `"cycle":1.00` as a double over the timespec's seconds (1.0 read as
    /// 4,607,182,418,800,017,408 s), so seconds beyond an hour are read as that double's bits; what is still no
    /// plausible cycle (0 to an hour) is none.
    static func cycle(seconds: Int64, nanoseconds: Int64) -> Double? {
        var cycle = Double(seconds) + Double(nanoseconds) / 1e9
        if seconds > 3600 { cycle = Double(bitPattern: UInt64(bitPattern: seconds)) }
        return cycle > 0 && cycle <= 3600 && cycle.isFinite ? cycle : nil
    }

    /// Whether a gpsd JSON line is a DEVICE report of a receiver going away (`"activated":0`).
    ///
    /// Matched on the text: libgps 3.22 fails to unpack `"activated":0` (it expects a time string), so such a
    /// DEVICE message sets no DEVICE_SET bit, only PACKET_SET.
    static func isDeactivation(_ line: String) -> Bool {
        line.hasPrefix(#"{"class":"DEVICE","#)
            && (line.contains(#""activated":0,"#) || line.contains(#""activated":0}"#))
    }
}
