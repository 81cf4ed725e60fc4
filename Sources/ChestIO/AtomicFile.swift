import Foundation
import Glibc

/// Writes that either happen whole or not at all, and survive power loss once they return:
/// a temporary file beside the target, fsync, rename over the target, fsync of the directory.
public enum AtomicFile {
    /// Temporary files start with this; a crash can leave one behind, never a half-written target.
    public static let temporaryPrefix = ".tmp-"

    /// Replaces (or creates) `path` with `data`, with mode 0600.
    public static func write(_ data: Data, to path: String) throws(SystemCallError) {
        try writeUnsynced(data, to: path, sync: true)
        try syncDirectory(of: path)
    }

    /// Writes several files, then makes them durable with one sync per directory rather than one per file:
    /// the cost that matters when thousands of messages arrive at once.
    public static func write(batch: [(path: String, data: Data)]) throws(SystemCallError) {
        guard !batch.isEmpty else { return }
        for item in batch { try writeUnsynced(item.data, to: item.path, sync: true) }
        for directory in Set(batch.map { directoryName($0.path) }) { try syncDirectory(directory) }
    }

    /// Renames `from` to `to` (same file system) and syncs both directories.
    public static func move(_ from: String, to: String) throws(SystemCallError) {
        try retryingOnInterrupt("rename", path: from) { rename(from, to) }
        try syncDirectory(of: to)
        if directoryName(from) != directoryName(to) { try syncDirectory(of: from) }
    }

    /// Removes `path` for good and syncs its directory; a file already gone is no error.
    public static func remove(_ path: String) throws(SystemCallError) {
        if unlink(path) == -1 && errno != ENOENT { throw SystemCallError("unlink", path: path) }
        try syncDirectory(of: path)
    }

    /// fsyncs the directory holding `path`, so a rename or unlink in it is durable.
    public static func syncDirectory(of path: String) throws(SystemCallError) {
        try syncDirectory(directoryName(path))
    }

    public static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let fd = try retryingOnInterrupt("open", path: directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try retryingOnInterrupt("fsync", path: directory) { fsync(fd) }
    }

    private static func writeUnsynced(_ data: Data, to path: String, sync: Bool) throws(SystemCallError) {
        let temporary = directoryName(path) + "/" + temporaryPrefix + baseName(path) + "-\(getpid())"
        let fd = try retryingOnInterrupt("open", path: temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        do throws(SystemCallError) {
            try writeAll(data, to: fd, path: temporary)
            if sync { try retryingOnInterrupt("fsync", path: temporary) { fsync(fd) } }
            close(fd)
            try retryingOnInterrupt("rename", path: path) { rename(temporary, path) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
    }
}

/// The directory part of a path: "/a/b" for "/a/b/c", "." for "c".
public func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The last component of a path.
public func baseName(_ path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
}

/// Writes every byte of `data` to `fd`, resuming after short writes.
public func writeAll(_ data: Data, to fd: Int32, path: String? = nil) throws(SystemCallError) {
    let failure: SystemCallError? = data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return SystemCallError("write", path: path)
            }
            offset += written
        }
        return nil
    }
    if let failure { throw failure }
}
