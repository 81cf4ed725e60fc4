import ChestIO
import Glibc

/// The end of a TCP connection as TCP means it (docs/HUNTS.md "libmosquitto notes", the will).
enum GracefulClose {
    /// Ends our half of the connection (FIN) and reads until the broker ends its own, then closes: a socket closed
    /// with unread bytes (messages still arriving) is reset, and a broker that meets the reset in writing to us
    /// before it has read the DISCONNECT takes the connection for lost and publishes the will.
    static func close(_ descriptor: Int32, within seconds: Double) {
        defer { Glibc.close(descriptor) }
        guard shutdown(descriptor, Int32(SHUT_WR)) == 0 else { return }
        let deadline = MonotonicClock.now() + seconds
        var discarded = [UInt8](repeating: 0, count: 4096)
        while case let left = deadline - MonotonicClock.now(), left > 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(left * 1000) + 1)
            if ready == 0 || (ready < 0 && errno != EINTR) { return }
            if ready < 0 { continue }
            let count = read(descriptor, &discarded, discarded.count)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
        }
    }
}
