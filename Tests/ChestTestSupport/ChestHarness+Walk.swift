import ChestSimulator
import Foundation

extension ChestHarness {
    /// Replays `walk` through gpsfake into this world's chestd, started here, and waits until chestd has seen
    /// the whole feed and gpsd go; the exit status of gpsfake (0 when it played everything).
    @discardableResult
    package func walk(_ walk: NMEAWalk) throws -> Int32? {
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        gpsd = "127.0.0.1:\(fake.port)"
        try startDaemon()
        let status = fake.waitForExit(timeout: 60)
        try waitUntil("chestd saw gpsd go", timeout: 15) {
            (try self.status()["gpsd"])?["connected"]?.bool == false
        }
        return status
    }
}
