import Foundation
import Testing

extension ChestHarness {
    /// Points chestd at `fake`'s gpsd, starts it, and returns once gpsfake has replayed everything (its exit
    /// status) and chestd has seen gpsd go.
    @discardableResult
    package func replay(_ fake: GPSFake, timeout: Double = 60) throws -> Int32? {
        gpsd = "127.0.0.1:\(fake.port)"
        try startDaemon()
        let status = fake.waitForExit(timeout: timeout)
        try waitUntil("the replay is over", timeout: 60) {
            (try self.status()["gpsd"])?["connected"]?.bool == false
        }
        return status
    }
}
