import FoundationEssentials
import Glibc

/// The file a user names with `-o`, written the way a shell's `>` would, but never half-written
/// (docs/ARCHITECTURE.md "Output files"):
///
/// - `-` is standard output;
/// - a FIFO, a character or block device, a terminal (and a symlink to any of them, `/dev/stdout` among them) is
///   written through, in place: replacing it by a rename would put a regular file where `/dev/null` was;
/// - a regular file, new or existing, is replaced atomically (`AtomicFile`); through a symlink, the file it points
///   to is replaced and the link stays.
package struct OutputFile: Sendable, Equatable {
    /// What the name leads to once its symlinks are followed.
    package enum Target: Sendable, Equatable {
        /// The process's standard output: `-`, or a name that leads to the same open file (`/dev/stdout`).
        case standardOutput
        /// Something that is not a regular file: written through the path as given (the kernel follows its links).
        case special(path: String)
        /// A regular file at `path` (links followed, absolute), replaced atomically; `exists` when one is there now.
        case regular(path: String, exists: Bool)
        /// A regular file reached through a link in /proc (`/dev/fd/N` of a redirected descriptor): truncated and
        /// written in place, since the link names an open file, not a place to rename to.
        case openFile(path: String)

        /// Whether the name leads to a regular file, there now or to be made (not standard output, not a device).
        package var isRegularFile: Bool {
            if case .regular = self { return true }
            return false
        }
    }

    /// The name as the user gave it, for messages.
    package let name: String
    package let target: Target

    /// Follows `name`'s symlinks from `directory` (the working directory when nil) to what it names.
    package init(_ name: String, directory: String? = nil) throws(SystemCallError) {
        self.name = name
        target = try Self.resolve(name, directory: directory)
    }

    /// Whether writing would replace a regular file that is there now: the case `--force` exists for.
    package var replacesExistingFile: Bool {
        if case .regular(_, exists: true) = target { return true }
        return false
    }

    /// Writes `data` to the target: atomically for a regular file, through the open file otherwise.
    package func write(_ data: Data) throws(SystemCallError) {
        switch target {
        case .standardOutput:
            try FileDescriptor.standardOutput.writeAll(data, path: name)
        case let .special(path):
            try writeThrough(data, path: path, flags: O_WRONLY | O_NOCTTY)
        case let .openFile(path):
            try writeThrough(data, path: path, flags: O_WRONLY | O_NOCTTY | O_TRUNC)
        case let .regular(path, _):
            try AtomicFile.write(data, to: path)
        }
    }

    /// Writes `data` to the file named `name` (see `OutputFile`).
    package static func write(_ data: Data, to name: String) throws(SystemCallError) {
        try OutputFile(name).write(data)
    }

    private func writeThrough(_ data: Data, path: String, flags: Int32) throws(SystemCallError) {
        let fd = try FileDescriptor.open(path, flags)
        try fd.closeAfter { () throws(SystemCallError) in try fd.writeAll(data, path: name) }
    }

    /// Symlinks allowed on the way, as the kernel's own limit (MAXSYMLINKS).
    static let maximumLinks = 40

    private static func resolve(_ name: String, directory: String?) throws(SystemCallError) -> Target {
        if name == "-" { return .standardOutput }
        guard !name.isEmpty else { throw SystemCallError("open", path: name, errno: Errno(ENOENT)) }
        var path = name.hasPrefix("/") ? name : (directory ?? FileManager.default.currentDirectoryPath) + "/" + name
        for _ in 0...maximumLinks {
            var status = stat()
            if lstat(path, &status) == -1 {
                guard errno == ENOENT else { throw SystemCallError("stat", path: name) }
                return .regular(path: path, exists: false)
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .regular(path: path, exists: true)
            case S_IFDIR: throw SystemCallError("open", path: name, errno: Errno(EISDIR))
            case S_IFLNK where isInProc(path):
                // A link in /proc (`/dev/fd/1` too) names an open file ("pipe:[7]" is no path): let the kernel follow it.
                return try openFileTarget(path, name: name)
            case S_IFLNK:
                let link = try linkTarget(path, name: name)
                path = link.hasPrefix("/") ? link : directoryName(path) + "/" + link
            default:
                return .special(path: path)
            }
        }
        throw SystemCallError("open", path: name, errno: Errno(ELOOP))
    }

    private static func openFileTarget(_ path: String, name: String) throws(SystemCallError) -> Target {
        var status = stat()
        var output = stat()
        guard stat(path, &status) == 0 else { throw SystemCallError("stat", path: name) }
        if fstat(1, &output) == 0, output.st_dev == status.st_dev, output.st_ino == status.st_ino {
            return .standardOutput
        }
        return status.st_mode & S_IFMT == S_IFREG ? .openFile(path: path) : .special(path: path)
    }

    /// Whether `path`'s directory is on the file system mounted at /proc (its links are open files, not paths).
    private static func isInProc(_ path: String) -> Bool {
        var directory = stat()
        var proc = stat()
        return stat(directoryName(path), &directory) == 0 && stat("/proc", &proc) == 0
            && directory.st_dev == proc.st_dev
    }

    private static func linkTarget(_ path: String, name: String) throws(SystemCallError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retryingOnInterrupt("readlink", path: name) { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
