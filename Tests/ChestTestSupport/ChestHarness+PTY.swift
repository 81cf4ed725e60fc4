import ChestIO
import Foundation

extension ChestHarness {
    /// Starts a gpsd of its own on a free port reading `feeder`'s pty, points chestd at it, starts chestd and
    /// returns the gpsd once chestd is connected to it (the caller stops it).
    package func startDaemon(readingFrom feeder: PTYFeeder) throws -> GPSDaemon {
        let port = FreePort.onLoopback()
        let gpsd = try GPSDaemon(port: port, device: feeder.devicePath)
        self.gpsd = "127.0.0.1:\(port)"
        do {
            try startDaemon()
            try waitUntil("chestd is connected to gpsd", timeout: 20) {
                (try status()["gpsd"])?["connected"]?.bool == true
            }
        } catch {
            gpsd.stop()
            throw error
        }
        return gpsd
    }
}
