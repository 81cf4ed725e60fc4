import Glibc

/// Tells systemd about the daemon's state with the sd_notify(3) protocol, spoken directly so that no
/// libsystemd is needed: one datagram of newline-separated `KEY=VALUE` lines to `$NOTIFY_SOCKET`.
///
/// Outside systemd (no `NOTIFY_SOCKET`) every call does nothing. Failures to send are ignored, as
/// sd_notify(3) recommends: the daemon must work the same whether or not anyone listens.
package final class SystemdNotifier: Sendable {
    private let address: UnixSocketAddress?
    private let watchdogMicroseconds: UInt64?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    package init(environment: [String: String]) {
        address = environment["NOTIFY_SOCKET"].flatMap(UnixSocketAddress.init(notation:))
        watchdogMicroseconds = Self.watchdogMicroseconds(environment)
    }

    /// Whether systemd asked for notifications (`NOTIFY_SOCKET` names a usable socket).
    package var isEnabled: Bool { address != nil }

    /// How often to call `watchdog()`, in seconds: half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3)
    /// recommends; nil when no watchdog is armed for this process.
    package var watchdogInterval: Double? {
        watchdogMicroseconds.map { Double($0) / 2_000_000 }
    }

    /// Startup is complete: `READY=1` with a status line.
    package func ready(status: String) {
        send("READY=1\nSTATUS=\(Self.singleLine(status))")
    }

    /// A one-line status shown by `systemctl --user status chestd`.
    package func status(_ text: String) {
        send("STATUS=\(Self.singleLine(text))")
    }

    /// Shutdown has begun: `STOPPING=1`.
    package func stopping() {
        send("STOPPING=1")
    }

    /// The keep-alive ping: `WATCHDOG=1`.
    package func watchdog() {
        send("WATCHDOG=1")
    }

    private func send(_ message: String) {
        guard let address, let fd = try? UnixSocket.make(SOCK_DGRAM) else { return }
        defer { fd.close() }
        let bytes = Array(message.utf8)
        _ = address.withSockaddr { socketAddress, length in
            // MSG_DONTWAIT: a manager that stopped reading must never stall the daemon's loop.
            sendto(fd.rawValue, bytes, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), socketAddress, length)
        }
    }

    private static func watchdogMicroseconds(_ environment: [String: String]) -> UInt64? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"] {
            // The watchdog belongs to another process when the variable leaked into a child's environment.
            guard let owner = Int32(pid), owner == getpid() else { return nil }
        }
        return usec
    }

    private static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
