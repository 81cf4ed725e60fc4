import Foundation
import Glibc
import Testing

@testable import ChestIO

/// A bound datagram socket standing in for systemd's notification socket.
private final class NotifySocketListener {
    let fd: Int32
    /// The `NOTIFY_SOCKET` value that reaches this socket.
    let name: String
    private let directory: String?

    init(abstract: Bool) throws {
        let socket = try UnixSocket.make(SOCK_DGRAM)
        fd = socket.rawValue
        if abstract {
            name = "@chest-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            directory = nil
        } else {
            let made = try Directory.makeTemporary("chest-notify", in: "/tmp")
            directory = made
            name = made + "/notify"
        }
        guard let address = UnixSocketAddress(notation: name) else { throw SystemCallError("bind", path: name) }
        let bound = address.withSockaddr { bind(socket.rawValue, $0, $1) }
        guard bound == 0 else { throw SystemCallError("bind", path: name) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil when none arrives within two seconds.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Whether a datagram is already waiting.
    func hasPending() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1)
        return recv(fd, &buffer, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) >= 0
    }

    deinit {
        close(fd)
        if let directory {
            unlink(name)
            rmdir(directory)
        }
    }
}

@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func sendsEachNotification(abstract: Bool) throws {
        let listener = try NotifySocketListener(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.name])
        #expect(notifier.isEnabled)

        notifier.ready(status: "watching /home/ana/.local/share/chest, 3 locked")
        #expect(listener.receive() == "READY=1\nSTATUS=watching /home/ana/.local/share/chest, 3 locked")
        notifier.status("gpsd offline since 14:02")
        #expect(listener.receive() == "STATUS=gpsd offline since 14:02")
        notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        notifier.stopping()
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test func statusIsOneLine() throws {
        let listener = try NotifySocketListener(abstract: false)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.name])
        notifier.status("two\nlines")
        #expect(listener.receive() == "STATUS=two lines")
    }

    @Test func doesNothingOutsideSystemd() throws {
        let listener = try NotifySocketListener(abstract: false)
        for environment in [[:], ["NOTIFY_SOCKET": ""], ["NOTIFY_SOCKET": "relative/path"]] {
            let notifier = SystemdNotifier(environment: environment)
            #expect(!notifier.isEnabled)
            notifier.ready(status: "ignored")
            notifier.watchdog()
            notifier.stopping()
        }
        #expect(!listener.hasPending())
    }

    @Test func sendingToAVanishedSocketIsHarmless() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/chest-test/notify"])
        #expect(notifier.isEnabled)
        notifier.ready(status: "nobody listens")
        notifier.watchdog()
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        let ours = String(getpid())
        let cases: [([String: String], Double?)] = [
            ([:], nil),
            (["WATCHDOG_USEC": "30000000"], 15),
            (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": ours], 15),
            (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": String(getpid() + 1)], nil),
            (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "not a pid"], nil),
            (["WATCHDOG_USEC": "0"], nil),
            (["WATCHDOG_USEC": "soon"], nil),
            (["WATCHDOG_USEC": "500000"], 0.25),
        ]
        for (environment, expected) in cases {
            #expect(SystemdNotifier(environment: environment).watchdogInterval == expected, "\(environment)")
        }
    }
}
