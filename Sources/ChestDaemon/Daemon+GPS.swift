import ChestCore
import ChestGPS
import ChestIO
import FoundationEssentials

extension Daemon {
    /// Starts connecting to gpsd on the reader's own thread; each connection it makes is read by the loop.
    func startGPS() -> GPSReader {
        let gpsd = settings.gpsd
        let sink = self.sink
        let reader = GPSReader(
            host: gpsd.host, port: gpsd.port, log: log,
            onEvent: { sink.yield(.gps($0)) },
            onConnection: { sink.yield(.gpsConnection($0)) },
            beforeEachPause: { Memory.releaseCodePages() })
        reader.start()
        return reader
    }

    /// gpsd's socket is read at most this often (seconds). Reports that come within it after a read (the rest of
    /// an epoch's burst, a fast replay's next epochs) wait for its end and are read together, one wake-up for all:
    /// each wake-up finds chestd's code and data cold again, and cost more than the reports it read (docs/BENCHMARKS.md
    /// "The fix path's CPU"). A receiver's first report of an epoch, most of a second after the
    /// last, is read the moment it comes. A quarter of a second, not a tenth: on a fast feed (a replay, a 5 or
    /// 10 Hz receiver) that is two to three times fewer wake-ups, for a fix that reaches the locks at most 0.25 s
    /// after gpsd sent it.
    static let gpsReadInterval = 0.25

    /// The socket the loop polls now, or, while it rests after a read, the instant it is polled again.
    func gpsToPoll(at now: Double) -> (descriptor: FileDescriptor?, restsUntil: Double?) {
        guard let connection = gpsConnection else { return (nil, nil) }
        return now < gpsRestsUntil ? (nil, gpsRestsUntil) : (connection.descriptor, nil)
    }

    /// The earlier of two instants, either of which may be absent.
    static func earliest(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Reads what gpsd sent, handling each report as it is read; a lost connection goes back to the reader,
    /// which reports the loss and connects again. The socket then rests for `gpsReadInterval`.
    func readGPS() {
        guard let connection = gpsConnection else { return }
        defer { gpsRestsUntil = clock.monotonic() + Self.gpsReadInterval }
        if let lost = connection.readAvailable({ handleGPS($0) }) {
            gpsConnection = nil
            connection.end(lost)
        }
    }

    /// Seconds after gpsd goes before the code its loss ran is handed back: the loss's events are out by then.
    static let releaseAfterGPSDLoss = 0.5

    func handleGPS(_ event: GPSEvent) {
        switch event {
        case let .connected(server):
            feed(.gpsLink(connected: true, server: server, reason: nil))
        case let .disconnected(server, reason):
            feed(.gpsLink(connected: false, server: server, reason: reason))
            feed(.receiver(nil, now()))
            releaseCodeSoon(within: Self.releaseAfterGPSDLoss, data: true)
        case let .fix(fix):
            feed(.fix(fix, now()))
            logTrackFailure(track.record(fix, at: fix.receivedAt))
        case let .receiver(source):
            feed(.receiver(source, now()))
        }
    }

    /// Logs a failure to write the track (`TrackRecorder` reports a failure once, not on every point).
    func logTrackFailure(_ failure: SystemCallError?) {
        if let failure { log.error("cannot record the track: \(failure)") }
    }

    /// Aims the fix's end-of-life check, given on the monotonic clock, on the wall-clock timer.
    func aimFixCheck(_ monotonic: Double) {
        let now = now()
        fixTimer?.aim(at: now.wall.timeIntervalSince1970 + monotonic - now.monotonic)
    }
}
