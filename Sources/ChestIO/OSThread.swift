import Glibc

/// A thread of the system's own, for the blocking C calls that must never run on the async pool (gpsd's
/// `gps_waiting`, libmosquitto's loop, Argon2id, `waitpid`): what Foundation's `Thread` gave, without Foundation.
package enum OSThread {
    /// Starts `body` on a new detached thread named `name` (the first 15 bytes, as `top -H` shows it).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(run: body, name: name)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, threadEntry, context)
        pthread_attr_destroy(&attributes)
        // Without a thread the work cannot happen at all; the process has run out of a system resource.
        if started != 0 { fatalError("pthread_create: " + String(cString: strerror(started))) }
    }

    /// Names the calling thread through /proc/thread-self/comm (the kernel keeps 15 bytes): the C library's
    /// `pthread_setname_np` is a GNU extension Swift's Glibc module does not show.
    fileprivate static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    fileprivate final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }
}

/// The C entry of every OSThread: takes back the body `start` retained, names the thread and runs it.
private func threadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let body = Unmanaged<OSThread.Body>.fromOpaque(context).takeRetainedValue()
    OSThread.nameThisThread(body.name)
    body.run()
    return nil
}
