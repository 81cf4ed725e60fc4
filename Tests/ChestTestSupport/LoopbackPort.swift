import ChestIO
import Dispatch
import Glibc

/// TCP ports on the loopback interface, for test servers.
public enum LoopbackPort {
    /// A port nothing listens on right now: the kernel's choice for an ephemeral bind, released at once.
    public static func free() -> Int { FreePort.onLoopback() }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits until `port` accepts connections, checking every 50 ms; false after `timeout` seconds, or as soon as
    /// `failed` holds (the server's process has ended).
    public static func waitUntilListening(_ port: Int, timeout: Double, unless failed: () -> Bool = { false }) -> Bool {
        let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + timeout
        while Double(DispatchTime.now().uptimeNanoseconds) / 1e9 < deadline {
            if isListening(port) { return true }
            if failed() { return false }
            usleep(50_000)
        }
        return false
    }
}
