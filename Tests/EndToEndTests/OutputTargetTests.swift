import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// Every command that takes `-o` writes what it was given the way a shell's `>` would: standard output for `-`,
/// through a FIFO, a device or a terminal in place (never a regular file renamed over `/dev/null`), and through a
/// symlink to the file it points to, leaving the link (docs/ARCHITECTURE.md "Output files").
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct OutputTargetTests {
    /// A command that writes a file with `-o`, and a string its output always holds.
    struct Writer: Sendable, CustomStringConvertible {
        let description: String
        /// The end of a file's name, which map and board --results read the format from.
        let suffix: String
        let holds: String
        /// Makes what the command needs in a new world (a hunt file, an opened page) and returns its arguments for
        /// an output path; `tag` differs for each run.
        let prepare: @Sendable (ChestHarness) throws -> @Sendable (_ output: String, _ tag: Int) -> [String]
    }

    static let writers: [Writer] = [
        Writer(description: "compose", suffix: "locked", holds: #""created""#) { _ in
            { output, _ in ["compose", "-o", output, "--force", "--title", "T", "--page", "p"] }
        },
        Writer(description: "export", suffix: "gpx", holds: "<gpx") { _ in
            { output, _ in ["export", "--gpx", "-o", output] }
        },
        Writer(description: "map", suffix: "svg", holds: "<svg") { _ in { output, _ in ["map", "-o", output] } },
        Writer(description: "hunt create", suffix: "hunt", holds: #""broker""#) { _ in
            { output, _ in ["hunt", "create", "Game", "--broker", "mqtt://127.0.0.1:9", "-o", output, "--force"] }
        },
        Writer(description: "hunt team add", suffix: "hunt", holds: #""broker""#) { world in
            try world.expectSuccess(["hunt", "create", "Game", "--broker", "mqtt://127.0.0.1:9", "-o", "game.hunt"])
            return { output, tag in ["hunt", "team", "add", "team\(tag)", "--hunt", "game.hunt", "-o", output] }
        },
        Writer(description: "board --results", suffix: "html", holds: "<!DOCTYPE html>") { world in
            try world.expectSuccess(["hunt", "create", "Game", "--broker", "mqtt://127.0.0.1:9", "-o", "game.hunt"])
            return { output, _ in ["board", "game.hunt", "--results", "--timeout", "1", "-o", output] }
        },
        Writer(description: "receipt", suffix: "json", holds: #""chest-receipt""#) { world in
            // A page opened at a place by a receiver's fixes, so it has a record to sign.
            let top = Coordinate(latitude: 47.3718, longitude: 8.5415)
            try world.expectSuccess(
                [
                    "compose", "-o", "place.locked", "--seal-cost", "interactive", "--title", "place",
                    "--page", "p", "--lock", "location=\(top.latitude),\(top.longitude)/50m",
                ], user: "alice")
            let fake = try GPSFake(
                walk: NMEAWalk(waypoints: [.init(top, altitudeMSL: 480, hold: 60)], start: Date()), delay: 0.01)
            world.gpsd = "127.0.0.1:\(fake.port)"
            try world.startDaemon()
            // The message comes in once chestd knows the receiver, so the receipt's evidence names it.
            try world.waitUntil("chestd knows the receiver", timeout: 30) {
                let status = try world.status()
                return ((status["fix"])?["source"])?["kind"]?.string == "pty"
            }
            try FileManager.default.copyItem(
                atPath: world.root + "/place.locked", toPath: world.chest + "/place.locked")
            try world.waitUntil("the page opens", timeout: 60) { try world.states() == ["place": "open"] }
            let id = try world.list().first?["id"]?.string ?? ""
            // The arguments hold the fake receiver, which stops when the test lets them go.
            return { output, _ in withExtendedLifetime(fake) { ["receipt", id, "--page", "1", "-o", output] } }
        },
    ]

    @Test(arguments: writers)
    func writesEveryKindOfTargetInPlace(_ writer: Writer) throws {
        let world = ChestHarness()
        let arguments = try writer.prepare(world)
        let root = world.root
        var tag = 0
        func run(_ output: String) throws -> Subprocess.Outcome {
            tag += 1
            let outcome = try world.chest(arguments(output, tag))
            #expect(outcome.status == 0, "\(writer) -o \(output): \(outcome.stderr)")
            return outcome
        }

        // `-`: standard output.
        #expect(try run("-").stdout.contains(writer.holds), "\(writer) -o -")

        // A new file, then a symlink to it: the file is replaced, the link stays a link.
        let file = root + "/out." + writer.suffix
        let link = root + "/link." + writer.suffix
        _ = try run(file)
        #expect(try Self.kind(of: file) == S_IFREG && Self.contents(file).contains(writer.holds), "\(writer) -o FILE")
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        #expect(symlink(file, link) == 0)
        _ = try run(link)
        #expect(try Self.kind(of: link) == S_IFLNK, "\(writer) replaced the symlink itself")
        #expect(try Self.contents(file).contains(writer.holds), "\(writer) did not write through the symlink")

        // A FIFO: a reader on the other end gets the bytes, and the FIFO is still one.
        let fifo = root + "/fifo." + writer.suffix
        #expect(mkfifo(fifo, 0o600) == 0)
        let fromFIFO = Self.drain(path: fifo)
        _ = try run(fifo)
        #expect(fromFIFO.wait().contains(writer.holds), "\(writer) -o FIFO")
        #expect(try Self.kind(of: fifo) == S_IFIFO)

        // A character device made for the test (as /dev/null: 1, 3), and a symlink to /dev/null itself.
        let device = root + "/null." + writer.suffix
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3) /* makedev(1, 3), a macro Glibc does not import */) == 0 {
            _ = try run(device)
            #expect(try Self.kind(of: device) == S_IFCHR, "\(writer) replaced a device node")
        }
        let nullLink = root + "/devnull." + writer.suffix
        #expect(symlink("/dev/null", nullLink) == 0)
        _ = try run(nullLink)
        #expect(try Self.kind(of: nullLink) == S_IFLNK && Self.kind(of: "/dev/null") == S_IFCHR)

        // A terminal: the text arrives on the pseudo-terminal's other side, which stays a terminal.
        let terminal = try Terminal()
        defer { terminal.close() }
        let fromTerminal = terminal.drain()
        _ = try run(terminal.path)
        #expect(try Self.kind(of: terminal.path) == S_IFCHR)
        terminal.closeSecondary()
        #expect(fromTerminal.wait().contains(writer.holds), "\(writer) -o /dev/pts/N")
    }

    @Test func composeAsksForForceOnlyForARegularFile() throws {
        let world = ChestHarness()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: world.root + "/mine.locked"))
        let refused = try world.chest(["compose", "-o", "mine.locked", "--title", "T", "--page", "p"])
        #expect(refused.status != 0 && refused.stderr.contains("mine.locked exists"), "\(refused.stderr)")
        #expect(try Self.contents(world.root + "/mine.locked") == "mine")
        // /dev/null is there, but it is not a file to keep: no --force needed, and it stays a device.
        try world.expectSuccess(["compose", "-o", "/dev/null", "--title", "T", "--page", "p"])
        #expect(try Self.kind(of: "/dev/null") == S_IFCHR)
        let directory = try world.chest(["compose", "-o", world.root, "--title", "T", "--page", "p"])
        #expect(directory.status != 0 && directory.stderr.contains("Is a directory"), "\(directory.stderr)")
    }

    static func kind(of path: String) throws -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw Failure(description: "lstat \(path): \(String(cString: strerror(errno)))")
        }
        return status.st_mode & S_IFMT
    }

    static func contents(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// Reads `path` (a FIFO) on a thread of its own until the writer closes it.
    static func drain(path: String) -> Drained {
        let drained = Drained()
        Thread {
            let fd = open(path, O_RDONLY)
            drained.read(fd)
            close(fd)
        }.start()
        return drained
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// Bytes read on another thread, handed over when the writer has closed its end.
final class Drained: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    func read(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count > 0 {
                bytes.withLock { $0 += buffer.prefix(count) }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        done.signal()
    }

    /// The text read, once the other end is closed (at most 60 s, for a loaded machine).
    func wait() -> String {
        _ = done.wait(timeout: .now() + 60)
        return bytes.withLock { String(decoding: $0, as: UTF8.self) }
    }
}

/// A pseudo-terminal pair in raw mode: the command writes to `path`, the test reads the other side.
final class Terminal: Sendable {
    let path: String
    private let primary: Int32
    private let secondary = Mutex<Int32>(-1)

    init() throws {
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // Glibc does not import posix_openpt/unlockpt/ptsname; these are the Linux ioctls behind them.
        guard primary >= 0, ioctl(primary, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(primary, 0x8004_5430 /* TIOCGPTN */, &number) == 0
        else {
            throw Failure(description: "pty: \(String(cString: strerror(errno)))")
        }
        path = "/dev/pts/\(number)"
        // Held open by the test, so the primary side reads until the test lets go, not until the command exits.
        let fd = open(path, O_RDWR | O_NOCTTY)
        var settings = termios()
        tcgetattr(fd, &settings)
        cfmakeraw(&settings)
        tcsetattr(fd, TCSANOW, &settings)
        secondary.withLock { $0 = fd }
    }

    /// Reads the primary side until the secondary side is closed by everyone (EIO).
    func drain() -> Drained {
        let drained = Drained()
        Thread { [primary] in drained.read(primary) }.start()
        return drained
    }

    func closeSecondary() {
        secondary.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    func close() {
        closeSecondary()
        Glibc.close(primary)
    }
}

extension ChestHarness {
    /// Runs `chest ARGUMENTS` and fails the test with its error output unless it succeeds.
    func expectSuccess(_ arguments: [String], user: String = "reader") throws {
        let outcome = try chest(arguments, user: user)
        #expect(outcome.status == 0, "chest \(arguments.joined(separator: " ")): \(outcome.stderr)")
    }
}
