import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The control socket and the daemon's lifecycle, as a user and a hostile local client would meet them.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(2)))
struct ControlSocketTests {
    /// Sends raw bytes on a fresh connection and returns the first reply line.
    func raw(_ bytes: String, to socket: String) throws -> String {
        let fd = try UnixSocket.connect(to: socket)
        defer { fd.close() }
        try fd.writeAll(Data(bytes.utf8))
        var reply = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 12, tv_usec: 0)
        setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let count = (try? fd.read(into: &reply)) ?? -1
        return count > 0 ? String(decoding: reply[..<count], as: UTF8.self) : ""
    }

    @Test func aMalformedRequestGetsAnErrorAndTheDaemonKeepsServing() throws {
        let world = ChestHarness()
        try world.startDaemon()
        #expect(try raw("{not json\n", to: world.socket).contains(#""ok":false"#))
        #expect(try raw(#"{"op":"explode"}"# + "\n", to: world.socket).contains("malformed request"))
        #expect(
            try raw(#"{"op":"read"}"# + "\n", to: world.socket).contains(
                #"malformed request: the request \"read\" needs \"id\""#))
        #expect(
            try raw(#"{"op":"import","path":"relative.locked"}"# + "\n", to: world.socket).contains(
                "import needs an absolute path"))
        #expect(try raw(String(repeating: "x", count: 40_000), to: world.socket).contains("over 16384 bytes"))
        let status = try world.chest(["status", "--json"])
        #expect(status.status == 0)
        let report = JSON.object(status.stdout)
        #expect((report?["gpsd"])?["connected"]?.bool == false)
        #expect(report?.keys?.contains("fix") == true)
        #expect(world.daemonIsRunning)
    }

    @Test func anIdleClientIsDropped() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let fd = try UnixSocket.connect(to: world.socket)
        defer { fd.close() }
        var reply = [UInt8](repeating: 0, count: 256)
        let start = Date()
        let count = (try? fd.read(into: &reply)) ?? -1
        #expect(count > 0)
        #expect(String(decoding: reply[..<max(count, 0)], as: UTF8.self).contains("no request within"))
        #expect(Date().timeIntervalSince(start) < 15)
    }

    @Test func aSecondDaemonRefusesAndAStaleSocketIsReplaced() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let second = try Subprocess.run(ChestHarness.products + "/chestd", [], environment: world.environment())
        #expect(second.status == 1)
        #expect(second.stderr.contains("another chestd (pid"), "\(second.stderr)")
        #expect(world.daemonIsRunning)
        world.stopDaemon(SIGKILL)
        #expect(FileManager.default.fileExists(atPath: world.socket))  // left behind by the crash
        try world.startDaemon()
        #expect(try world.chest(["list"]).status == 0)
    }

    /// The log names who sent the SIGTERM: a stop nobody meant is then traced to its sender.
    @Test func sigtermStopsCleanlyRemovesTheSocketAndNamesItsSender() throws {
        let world = ChestHarness()
        try world.startDaemon()
        #expect(world.stopDaemon(SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: world.socket))
        #expect(world.daemonLog.contains("stopping on SIGTERM from pid \(getpid()) ("), "\(world.daemonLog)")
    }

    /// A SIGTERM sent at any moment of start-up stops chestd cleanly: from the moment `main` holds the signals (the
    /// first thing it does) it waits, pending, until chestd's signal thread takes it. Sent at the first moment
    /// that /proc shows it held, or as the socket first answers, many times: one ignored before the thread took
    /// it was lost, and chestd ran on (docs/ARCHITECTURE.md "Threads").
    @Test func sigtermAtAnyMomentOfStartUpStopsCleanly() throws {
        for attempt in 0..<16 {
            let world = ChestHarness()
            let early = attempt % 2 == 0
            try world.startDaemon(waitForSocket: !early)
            let pid = try #require(world.daemon)
            if early {
                _ = holdsWithin(15, every: 0.0002) { Self.holds(SIGTERM, pid) }
                #expect(Self.holds(SIGTERM, pid), "attempt \(attempt): chestd never held SIGTERM")
            }
            #expect(world.stopDaemon(SIGTERM) == 0, "attempt \(attempt): \(world.daemonLog)")
            #expect(!FileManager.default.fileExists(atPath: world.socket))
            #expect(world.daemonLog.contains("stopping on SIGTERM"), "attempt \(attempt): \(world.daemonLog)")
        }
    }

    /// Whether process `pid` blocks `signal` in its main thread (`SigBlk` of /proc/PID/status, a hexadecimal mask).
    static func holds(_ signal: Int32, _ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    @Test func commandsSayWhenChestdIsNotRunning() throws {
        let world = ChestHarness()
        let list = try world.chest(["list"])
        #expect(list.status == 1)
        #expect(list.stderr.contains("chestd is not running"))
        #expect(list.stderr.contains("start it with"))
    }

    @Test(arguments: [
        (["compose", "--title", "x", "--page", "p"], "compose needs -o FILE"),
        (["compose", "-o", "f", "--title", "x", "--page", "p", "--lock", "location=1,2/5m"], "under 10 m"),
        (
            ["compose", "-o", "f", "--title", "x", "--page", "p", "--lock", "pin=1234", "--lock", "pin=5678"],
            "two pin locks in set A"
        ),
        (["compose", "-o", "f", "--title", "x", "--page", "p", "--lock", "weather=foggy"], "unknown weather"),
        (["compose", "-o", "f", "--title", "x", "--lock", "pin=1234"], "comes before any --page"),
        (["frobnicate"], "unknown command"),
        (["read"], "usage: chest read ID"),
        (["watch", "--count", "zero"], "--count wants a positive number"),
    ])
    func usageErrorsExit64WithOneLineSayingHow(arguments: [String], words: String) throws {
        let world = ChestHarness()
        let outcome = try world.chest(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("chest: "))
        #expect(outcome.stderr.contains(words), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test func composeWithHereRefusesWithoutAFix() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let outcome = try world.chest([
            "compose", "-o", "h.locked", "--title", "Here", "--page", "x", "--lock", "location=here/30m",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("no GPS fix yet"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/h.locked"))
    }
}
