import ChestCore
import ChestGPS
import ChestIO

extension Daemon {
    /// Starts reading gpsd on the reader's own thread; its events join the loop.
    func startGPS() -> GPSReader {
        let gpsd = settings.gpsd
        let sink = self.sink
        let reader = GPSReader(host: gpsd.host, port: gpsd.port, log: log) { sink.yield(.gps($0)) }
        reader.start()
        return reader
    }

    func handleGPS(_ event: GPSEvent) {
        switch event {
        case let .connected(server):
            feed(.gpsLink(connected: true, server: server, reason: nil))
        case let .disconnected(server, reason):
            feed(.gpsLink(connected: false, server: server, reason: reason))
            feed(.receiver(nil, now()))
        case let .fix(fix):
            feed(.fix(fix, now()))
            if let error = track.record(fix) { log.error("cannot record the track: \(error)") }
        case let .receiver(source):
            feed(.receiver(source, now()))
        }
    }
}
