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

    /// A gpsfake that gives up at once the first time it is started, as the real one does when it reaches gpsd
    /// before gpsd listens ("socket error"), and runs the real one after: its directory, for the front of PATH, and
    /// a file with a line for each start.
    package func gpsfakeGivingUpOnce() throws -> (directory: String, starts: String) {
        let starts = root + "/gpsfake-starts"
        let directory = try program(
            "gpsfake",
            """
            echo start >> '\(starts)'
            if [ "$(wc -l < '\(starts)')" -eq 1 ]; then echo "gpsfake: socket error: Connection refused" >&2; exit 1; fi
            exec /usr/bin/gpsfake "$@"
            """)
        return (directory, starts)
    }

    /// Writes a shell script called `name` into the world's `bin` directory, for the front of PATH in place of a
    /// program chest runs (notify-send, gpsfake, gpsd); returns the directory.
    package func program(_ name: String, _ script: String) throws -> String {
        let directory = root + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ("#!/bin/sh\n" + script + "\n").write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        chmod(directory + "/" + name, 0o755)
        return directory
    }
}
