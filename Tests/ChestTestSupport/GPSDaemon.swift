import ChestIO
import Foundation
import Glibc

/// A plain gpsd on a chosen loopback port, reading one device (a `PTYFeeder`'s pty), so a test can kill it and
/// start another on the same port.
package final class GPSDaemon: @unchecked Sendable {
    package let port: Int
    private let process: TestProcess
    private let directory: URL

    /// Starts `gpsd -N -n -b -S PORT -F SOCKET DEVICE` and returns once it listens.
    package init(port: Int, device: String) throws {
        self.port = port
        directory = try makeTemporaryDirectory("gpsd")
        process = try TestProcess(
            "/usr/sbin/gpsd",
            [
                "-N", "-n", "-b", "-S", String(port), "-F", directory.appendingPathComponent("gpsd.sock").path, device,
            ], environment: ["GPSD_SHM_KEY": GPSDaemon.sharedMemoryKeyText(port: port)],
            output: directory.appendingPathComponent("gpsd.out"))
        guard FreePort.waitUntilListening(port, timeout: 10, unless: { !process.isRunning }), process.isRunning
        else {
            let output = process.outputText
            stop()
            throw GPSFake.Failure(description: "gpsd did not listen on port \(port): \(output)")
        }
    }

    package var pid: Int32 { process.pid }
    package var output: String { process.outputText }

    /// Stops gpsd with SIGTERM and removes its shared memory segment and control socket.
    package func stop() {
        process.terminate()
        GPSDaemon.removeLeftovers(port: port)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// The SysV shared memory key gpsfake gives the gpsd on `port` (`0x4770` and the port in hex).
    package static func sharedMemoryKey(port: Int) -> key_t { key_t(bitPattern: 0x4770_0000 | UInt32(port & 0xFFFF)) }

    static func sharedMemoryKeyText(port: Int) -> String {
        let hex = String(port & 0xFFFF, radix: 16, uppercase: true)
        return "0x4770" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Removes the shared memory segment a gpsd on `port` leaves behind: started as root, gpsd drops privileges
    /// and can no longer remove it itself (docs/DESIGN.md "gpsfake pitfalls").
    package static func removeLeftovers(port: Int) {
        let id = shmget(sharedMemoryKey(port: port), 0, 0)
        if id >= 0 { _ = shmctl(id, IPC_RMID, nil) }
    }
}
