import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// What chestd tells systemd and the user's hook, with the built chestd.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(2)))
struct NotificationTests {
    @Test func chestdSpeaksSdNotifyOnItsOwnSocket() throws {
        let world = ChestHarness()
        let path = world.root + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer {
            close(fd)
            unlink(path)
        }
        let bound = try UnixSocketAddress(path: path).withSockaddr { bind(fd, $0, $1) }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        world.extraEnvironment = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"]
        try world.startDaemon()
        func next() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
        let ready = next()
        #expect(ready.contains("READY=1"), "\(ready)")
        #expect(ready.contains("STATUS=no GPS fix yet: gpsd is not connected"), "\(ready)")
        #expect(next().contains("WATCHDOG=1"))
        world.stopDaemon(SIGTERM)
        var stopping = ""
        for _ in 0..<10 where !stopping.contains("STOPPING=1") { stopping = next() }
        #expect(stopping.contains("STOPPING=1"))
    }

    @Test func theHookGetsTheEventAndAHangingHookNeverBlocksChestd() throws {
        let world = ChestHarness()
        let received = world.root + "/hook.json"
        let script = world.root + "/hook.sh"
        // The first unlock's hook hangs forever; the others write what they received.
        try """
        #!/bin/sh
        if [ "$CHEST_TITLE" = "hang" ]; then exec sleep 1000; fi
        cat >> '\(received)'; echo " $CHEST_EVENT $CHEST_PAGE $CHEST_SET" >> '\(received)'
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        #expect(try world.chest(["config", "hook", script]).status == 0)
        #expect(try world.chest(["config", "hook.timeoutSeconds", "1"]).status == 0)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        try alice.drop("hang", [.time(Date().addingTimeInterval(1))], into: world.chest)
        try alice.drop("later", [.time(Date().addingTimeInterval(2))], into: world.chest)
        try world.startDaemon()
        try world.waitUntil("the second hook ran", timeout: 20) {
            (try? String(contentsOfFile: received, encoding: .utf8))?.contains("unlocked 1 A") == true
        }
        let text = try String(contentsOfFile: received, encoding: .utf8)
        #expect(text.contains(#""title":"later""#), "\(text)")
        #expect(!text.contains(#""title":"hang""#))
        try world.waitUntil("the hanging hook is killed", timeout: 10) {
            world.daemonLog.contains("timed out") || world.daemonLog.contains("timedOut")
        }
        #expect(try world.states() == ["hang": "open", "later": "open"])
        #expect(world.daemonIsRunning)
    }

    /// An unlock nobody received (no watcher, no notifier) is delivered after a restart, and only once.
    @Test func anUndeliveredUnlockIsDeliveredAfterARestartOnce() throws {
        let world = ChestHarness()
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("soon", [.time(Date().addingTimeInterval(1))], into: world.chest)
        try world.startDaemon()
        try world.waitUntil("it opens", timeout: 10) { try world.states() == ["soon": "open"] }
        world.stopDaemon(SIGKILL)
        let received = world.root + "/hook.out"
        #expect(try world.chest(["config", "hook", "cat >> '\(received)'; echo >> '\(received)'"]).status == 0)
        try world.startDaemon()
        try world.waitUntil("the hook got it", timeout: 10) {
            (try? String(contentsOfFile: received, encoding: .utf8))?.contains(#""event":"unlocked""#) == true
        }
        try world.waitUntil("the delivery is on disk", timeout: 10) {
            world.names(in: "state").contains { name in
                ((try? String(contentsOfFile: world.chest + "/state/" + name, encoding: .utf8)) ?? "")
                    .contains(#""delivered":true"#)
            }
        }
        world.stopDaemon()
        try world.startDaemon()
        // Undelivered unlocks go out at start, before anything new: once a new unlock has reached the hook, "soon"
        // would have been sent again if it were going to be.
        try MessageFactory(configDirectory: world.root + "/config-alice")
            .drop("witness", [.time(Date().addingTimeInterval(-60))], into: world.chest)
        try world.waitUntil("the hook got the witness", timeout: 10) {
            (try? String(contentsOfFile: received, encoding: .utf8))?.contains(#""title":"witness""#) == true
        }
        let lines = try String(contentsOfFile: received, encoding: .utf8).split(separator: "\n")
        #expect(lines.count { $0.contains(#""title":"soon""#) } == 1, "\(lines)")
        #expect(lines.count == 2, "\(lines)")
    }
}
