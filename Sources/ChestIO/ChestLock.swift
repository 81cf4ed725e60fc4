import FoundationEssentials
import Glibc
import Synchronization

/// One chestd per chest: an exclusive `flock(2)` on `CHEST/chestd.lock`, held as long as the process lives (the
/// kernel drops it when the process dies, even by SIGKILL). The file holds the owner's pid so that a second
/// daemon can say who has the chest.
package final class ChestLock: Sendable {
    /// The lock file's descriptor; -1 once released, so that a second release closes nothing: the number may belong
    /// to another descriptor by then (a client's connection, an inotify watch).
    private let fd: Atomic<Int32>

    package static let fileName = "chestd.lock"

    /// Takes the lock on the chest at `root`, or says which process holds it.
    package init(root: String) throws(ChestError) {
        let path = root + "/" + Self.fileName
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, permissions: 0o600)
        } catch {
            throw ChestError("cannot open the chest's lock file: \(error)")
        }
        guard flock(fd.rawValue, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK ? nil : Errno.current
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = (try? fd.read(into: &bytes)) ?? 0
            fd.close()
            if let reason { throw ChestError("cannot lock \(path): \(reason)") }
            let pid = String(decoding: bytes[..<max(count, 0)], as: UTF8.self).trimmed()
            throw ChestError(
                "another chestd (pid \(pid.isEmpty ? "unknown" : pid)) is using the chest \(root); stop it first")
        }
        ftruncate(fd.rawValue, 0)
        _ = try? fd.writeAll(Data("\(getpid())\n".utf8), path: path)
        self.fd = Atomic(fd.rawValue)
    }

    /// Releases the lock (also released when the process exits); again, it does nothing.
    package func release() {
        let raw = fd.exchange(-1, ordering: .acquiringAndReleasing)
        if raw >= 0 { FileDescriptor(rawValue: raw).close() }
    }
}
