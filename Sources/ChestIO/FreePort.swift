/// A TCP port on the loopback interface for a private server (the gpsd of `chest simulate --gpsd`, the tests').
package enum FreePort {
    /// A port nothing listens on right now: the kernel's choice for an ephemeral bind, released at once; 0 when
    /// the process has no socket to spare.
    package static func onLoopback() -> Int {
        guard let (fd, port) = try? LoopbackSocket.bound() else { return 0 }
        fd.close()
        return port
    }
}
