import ChestCore
import ChestSimulator
import Foundation
import Glibc
import Synchronization

/// A pseudo-terminal that plays a GPS receiver: it writes one epoch of NMEA sentences per `interval` to the
/// master side, for a `GPSDaemon` reading the slave side (`devicePath`).
///
/// It keeps the slave open itself, as gpsfake does, so the pty survives gpsd being killed and restarted, and it
/// drains the master so gpsd never blocks writing to the "receiver" (docs/DESIGN.md "gpsfake harness").
package final class PTYFeeder: Sendable {
    /// The receiver's device path, `/dev/pts/N`.
    package let devicePath: String
    private let master: Int32
    private let slave: Int32
    private let stopping = Mutex(false)
    private let ended = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    /// Signalled by `stop()` to cut the wait between epochs short.
    private let wakeUp = DispatchSemaphore(value: 0)

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Opens the pty and starts feeding `epochs` (each a group of sentences without line endings); with `paused`,
    /// only once `resume()` is called, so a test can connect its watchers first.
    package init(epochs: [[String]], interval: Double, paused: Bool = false) throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard master >= 0 else { throw Failure(description: "open /dev/ptmx: \(String(cString: strerror(errno)))") }
        // Glibc does not import posix_openpt/unlockpt/ptsname; these are the Linux ioctls behind them.
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0
        else {
            close(master)
            throw Failure(description: "pty ioctl: \(String(cString: strerror(errno)))")
        }
        devicePath = "/dev/pts/\(number)"
        slave = open(devicePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "open \(devicePath): \(String(cString: strerror(errno)))")
        }
        // gpsd started as root drops to gpsd:dialout and must still open the pty.
        chmod(devicePath, 0o666)
        var settings = termios()
        tcgetattr(slave, &settings)
        settings.c_iflag = 0
        settings.c_oflag = 0
        settings.c_lflag = 0
        settings.c_cflag = tcflag_t(CS8 | CREAD | CLOCAL)
        cfsetspeed(&settings, speed_t(B38400))
        tcsetattr(slave, TCSANOW, &settings)
        let lines = epochs.map { Array($0.map { $0 + "\r\n" }.joined().utf8) }
        let thread = Thread { [self] in feed(lines, interval: interval) }
        thread.name = "pty-feeder"
        thread.start()
        if !paused { resume() }
    }

    /// A feeder that plays `walk`.
    package convenience init(walk: NMEAWalk, interval: Double, paused: Bool = false) throws {
        try self.init(epochs: walk.epochs().map(NMEAWalk.sentences(for:)), interval: interval, paused: paused)
    }

    /// Starts feeding a feeder made `paused`.
    package func resume() { started.signal() }

    /// Stops feeding and closes the pty once the feeding thread has ended: a descriptor closed while that thread
    /// could still write to it may meanwhile belong to another test's socket.
    package func stop() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        started.signal()
        wakeUp.signal()
        ended.wait()
        close(slave)
        close(master)
    }

    deinit { stop() }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func feed(_ epochs: [[UInt8]], interval: Double) {
        defer { ended.signal() }
        started.wait()
        var scratch = [UInt8](repeating: 0, count: 4096)
        for var bytes in epochs {
            guard !isStopping else { return }
            // While no gpsd reads, the pty fills up and writes fail with EAGAIN: those epochs are simply lost.
            _ = write(master, &bytes, bytes.count)
            while read(master, &scratch, scratch.count) > 0 {}
            _ = wakeUp.wait(timeout: .now() + interval)
        }
    }
}
