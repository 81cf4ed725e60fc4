import ChestIO
import Dispatch
import Glibc
import Synchronization

/// TCP ports on the loopback interface, for test servers.
package enum LoopbackPort {
    /// A port nothing uses right now, drawn below the kernel's ephemeral range (32768 and up here): an ephemeral
    /// port released at once may be handed to the next outgoing connection of a test running beside this one
    /// before the server binds it. Never one handed out before in this process: a server restarted on its port
    /// (a killed broker, a killed gpsd) leaves it free for a moment, and another test's server must not take it.
    package static func free() -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_768)
            if canBind(port), handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        return FreePort.onLoopback()
    }

    private static let handedOut = Mutex<Set<Int>>([])

    /// Whether 127.0.0.1:`port` can be bound now.
    static func canBind(_ port: Int) -> Bool { onSocket(port, bind) }

    /// `call` (bind or connect) on a new TCP socket with 127.0.0.1:`port`; whether it succeeded.
    private static func onSocket(_ port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    package static func isListening(_ port: Int) -> Bool { onSocket(port, connect) }

    /// Waits until `port` accepts connections, checking every 50 ms; false after `timeout` seconds, or as soon as
    /// `failed` holds (the server's process has ended).
    package static func waitUntilListening(_ port: Int, timeout: Double, unless failed: () -> Bool = { false }) -> Bool
    {
        var listening = false
        _ = holdsWithin(timeout, every: 0.05) {
            listening = isListening(port)
            return listening || failed()
        }
        return listening
    }
}
