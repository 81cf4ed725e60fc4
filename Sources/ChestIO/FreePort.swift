import Glibc
import Synchronization

/// TCP ports on the loopback interface for private servers (the gpsd of `chest simulate --gpsd`, the tests').
package enum FreePort {
    /// A port nothing uses right now, drawn below the kernel's ephemeral range (32768 and up by default): an
    /// ephemeral port released at once may go to the next outgoing connection of any program before the server
    /// binds it. Never one handed out before in this process: a server restarted on its port leaves it free for a
    /// moment, and another server must not take it. 0 when no port could be found.
    package static func onLoopback() -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_768)
            if onSocket(port, bind), handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        guard let (fd, port) = try? LoopbackSocket.bound() else { return 0 }
        fd.close()
        return port
    }

    private static let handedOut = Mutex<Set<Int>>([])

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    package static func isListening(_ port: Int) -> Bool { onSocket(port, connect) }

    /// Waits until `port` accepts connections, checking every 50 ms; false after `timeout` seconds, or as soon as
    /// `failed` holds (the server's process has ended).
    package static func waitUntilListening(_ port: Int, timeout: Double, unless failed: () -> Bool = { false }) -> Bool
    {
        let deadline = MonotonicClock.now() + timeout
        while true {
            if isListening(port) { return true }
            if failed() || MonotonicClock.now() >= deadline { return false }
            usleep(50_000)
        }
    }

    /// `call` (bind or connect) on a new TCP socket with 127.0.0.1:`port`; whether it succeeded.
    private static func onSocket(_ port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
