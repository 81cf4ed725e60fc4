import ChestCore
import ChestIO
import ChestSimulator
import Foundation
import Glibc

/// gpsfake replaying a log into its own private gpsd on a free loopback port, as the gpsd regression tests
/// run it (docs/DESIGN.md "gpsfake harness"): single pass, pipe mode with a JSON watcher, so the feed starts 1.4 s after that
/// watcher connects; a client under test must connect within about a second of `init` returning.
package final class GPSFake: @unchecked Sendable {
    package let port: Int
    package let log: URL
    private let process: TestProcess
    private let directory: URL

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts gpsfake on the log file at `log` and returns once its gpsd listens and lists gpsfake's device.
    /// - Parameters:
    ///   - delay: gpsfake's `-c`, seconds per sentence (not per epoch): `NMEAWalk` writes 5 per epoch.
    ///   - port: the port for gpsd; by default a free one, drawn again if another test takes it first.
    package convenience init(log: URL, delay: Double = 0.01, port: Int? = nil) throws {
        try self.init(log: log, nmea: nil, delay: delay, port: port)
    }

    /// Writes `nmea` to a log file in gpsfake's private temporary directory (removed by `stop()`) and replays it.
    package convenience init(nmea: String, delay: Double = 0.01, port: Int? = nil) throws {
        try self.init(log: nil, nmea: nmea, delay: delay, port: port)
    }

    /// Replays `walk`, written as an NMEA log to a temporary file.
    package convenience init(walk: NMEAWalk, delay: Double = 0.01, port: Int? = nil) throws {
        try self.init(nmea: walk.log(comment: "chest test walk"), delay: delay, port: port)
    }

    private init(log: URL?, nmea: String?, delay: Double, port chosen: Int?) throws {
        var port = chosen ?? FreePort.onLoopback()
        directory = try makeTemporaryDirectory("gpsfake")
        if let nmea {
            self.log = directory.appendingPathComponent("walk.nmea")
            try Data(nmea.utf8).write(to: self.log)
        } else {
            self.log = log ?? directory
        }
        // gpsfake puts gpsd's control socket in $TMPDIR; a private one is removed whole by `stop()`.
        let output = directory.appendingPathComponent("gpsfake.out")
        var attempt = 1
        while true {
            let arguments = [
                "-1", "-p", "-q", "-s", "38400", "-P", String(port), "-c", String(delay),
                "-r", #"?WATCH={"enable":true,"json":true}"#, self.log.path,
            ]
            let process = try TestProcess(
                "/usr/bin/gpsfake", arguments, environment: ["TMPDIR": directory.path], output: output)
            let listening = FreePort.waitUntilListening(port, timeout: 30, unless: { !process.isRunning })
            // gpsfake adds its pty to gpsd through gpsd's control socket as soon as that socket's file exists, and
            // says nothing when the connection is refused (most likely gpsd not yet listening on it, on a busy
            // machine): gpsd then has no device, and gpsfake waits forever. Seen once in some 130 starts (docs/DESIGN.md "gpsfake pitfalls").
            let deviceAdded = listening && Self.waitForADevice(port: port, timeout: 10, unless: { !process.isRunning })
            if deviceAdded {
                self.process = process
                self.port = port
                return
            }
            var text = process.outputText
            if listening && !deviceAdded {
                text += "\ngpsd has no device: \(String(describing: try? Self.devicesLine(port: port)))"
            }
            process.terminate()
            GPSDaemon.removeLeftovers(port: port)
            // gpsfake connects as soon as gpsd has made its control socket; on a busy machine gpsd may not listen
            // on TCP yet, and gpsfake gives up at once ("socket error ... Connection refused"): start it again.
            // A free port found by another test in the same instant: draw another, unless the caller chose it.
            let taken = text.contains("Address already in use") && chosen == nil
            guard attempt < 3, text.contains("socket error") || taken || (listening && !deviceAdded) else {
                try? FileManager.default.removeItem(at: directory)
                throw Failure(description: "gpsfake did not start gpsd on port \(port): \(text)")
            }
            if taken { port = FreePort.onLoopback() }
            attempt += 1
        }
    }

    /// Asks gpsd on `port` for its devices every 20 ms until it lists one; false after `timeout` seconds, or as soon
    /// as `failed` holds.
    package static func waitForADevice(port: Int, timeout: Double, unless failed: () -> Bool = { false }) -> Bool {
        var listsOne = false
        _ = holdsWithin(timeout) {
            listsOne = (try? devicesLine(port: port))?.contains(#"{"class":"DEVICE","#) == true
            return listsOne || failed()
        }
        return listsOne
    }

    /// gpsd's answer to `?DEVICES;`: the line of class DEVICES.
    static func devicesLine(port: Int) throws -> String? {
        let fd = try WebClient.connect(host: "127.0.0.1", port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = "?DEVICES;\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Whole lines only (gpsd ends them with CR LF, one Character to a String, so split the bytes): the last
            // piece may still be arriving.
            let lines = received.split(separator: 0x0a, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
            if let line = lines.first(where: { $0.contains(#""class":"DEVICES""#) }) { return line }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received += buffer[0..<count]
        }
    }

    /// Whether gpsfake has not exited yet.
    package var isRunning: Bool { process.isRunning }

    /// gpsfake's watcher output (gpsd's JSON) and errors so far.
    package var output: String { process.outputText }

    /// Waits for gpsfake to finish the log (it exits 0 after its watcher saw the end); its exit status, or nil.
    @discardableResult
    package func waitForExit(timeout: Double) -> Int32? {
        process.waitForExit(timeout: timeout)
    }

    /// Stops gpsfake and its gpsd with SIGTERM and removes what gpsd leaves behind.
    package func stop() {
        process.terminate()
        GPSDaemon.removeLeftovers(port: port)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
