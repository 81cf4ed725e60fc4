import FoundationEssentials
import Glibc

/// Writes that either happen whole or not at all, and survive power loss once they return:
/// a temporary file beside the target, fsync, rename over the target, fsync of the directory.
package enum AtomicFile {
    /// Temporary files start with this; a crash can leave one behind, never a half-written target.
    package static let temporaryPrefix = ".tmp-"

    /// Replaces (or creates) `path` with `data`, with mode 0600.
    package static func write(_ data: Data, to path: String) throws(SystemCallError) {
        try write(batch: [(path, data)])
    }

    /// Replaces (or creates) `name` in the folder `directory` with `data`, mode 0600, every step relative to the
    /// open folder: the temporary file is made new (`O_EXCL | O_NOFOLLOW`, never something planted at its name),
    /// renamed over `name` and the folder synced. `path` names the file in errors.
    package static func write(
        _ data: Data, named name: String, in directory: FileDescriptor, path: String
    ) throws(SystemCallError) {
        let temporary =
            temporaryPrefix
            + fitting(
                name, suffix: "-\(getpid())-\(UInt32.random(in: 0 ... .max))", room: temporaryPrefix.utf8.count)
        let fd = try directory.open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o600, path: path)
        do throws(SystemCallError) {
            try fd.closeAfter { () throws(SystemCallError) in
                try fd.writeAll(data, path: path)
                try fd.sync(path: path)
            }
            try retryingOnInterrupt("rename", path: path) {
                renameat(directory.rawValue, temporary, directory.rawValue, name)
            }
        } catch {
            unlinkat(directory.rawValue, temporary, 0)
            throw error
        }
        let folder = try directory.open(".", O_RDONLY | O_DIRECTORY, path: directoryName(path))
        try folder.closeAfter { () throws(SystemCallError) in try folder.sync(path: directoryName(path)) }
    }

    /// Creates `path` with `data` durably unless something has that name already; false then, nothing written.
    package static func write(_ data: Data, toNew path: String) throws(SystemCallError) -> Bool {
        let temporary = try writeTemporary(data, for: path)
        do throws(SystemCallError) {
            let fd = try FileDescriptor.open(temporary, O_RDONLY | O_NOFOLLOW)
            try fd.closeAfter { () throws(SystemCallError) in try fd.sync(path: temporary) }
            if try moveWithoutReplacing(temporary, to: path) { return true }
        } catch {
            unlink(temporary)
            throw error
        }
        unlink(temporary)
        return false
    }

    /// From this many files on, one `sync(2)` of everything is cheaper than an fsync per file.
    static let batchSyncThreshold = 8

    /// Writes several files, each atomically, and makes them all durable before returning.
    package static func write(batch: [(path: String, data: Data)]) throws(SystemCallError) {
        var written: [(from: String, to: String)] = []
        do throws(SystemCallError) {
            for item in batch { written.append((try writeTemporary(item.data, for: item.path), item.path)) }
            try adopt(written)
        } catch {
            for item in written { unlink(item.from) }
            throw error
        }
    }

    /// Moves complete files into place (same file system), durably: their contents synced first — one `sync(2)`
    /// for a large batch rather than an fsync per file, the cost that matters when thousands of messages arrive
    /// at once — then renamed, then each directory involved synced.
    package static func adopt(_ moves: [(from: String, to: String)]) throws(SystemCallError) {
        guard !moves.isEmpty else { return }
        if moves.count >= batchSyncThreshold {
            sync()
        } else {
            for move in moves {
                let fd = try FileDescriptor.open(move.from, O_RDONLY | O_NOFOLLOW)
                try fd.closeAfter { () throws(SystemCallError) in try fd.sync(path: move.from) }
            }
        }
        for move in moves {
            try retryingOnInterrupt("rename", path: move.to) { rename(move.from, move.to) }
        }
        for directory in Set(moves.flatMap { [directoryName($0.from), directoryName($0.to)] }) {
            try syncDirectory(directory)
        }
    }

    /// Renames `from` to `to` (same file system) and syncs both directories.
    package static func move(_ from: String, to: String) throws(SystemCallError) {
        try retryingOnInterrupt("rename", path: from) { rename(from, to) }
        try syncDirectory(of: to)
        if directoryName(from) != directoryName(to) { try syncDirectory(of: from) }
    }

    /// Renames `from` to `to` unless `to` exists (`renameat2(RENAME_NOREPLACE)`), and syncs both directories.
    /// Returns false, having changed nothing, when `to` exists. Paths are bytes, so a name that is not UTF-8 works.
    package static func moveWithoutReplacing(_ from: [CChar], to: String) throws(SystemCallError) -> Bool {
        let moved = try retryingOnInterrupt("rename", path: to) { () -> Int32 in
            let result = renameNoReplace(AT_FDCWD, from, AT_FDCWD, to, 1)
            return result == -1 && errno == EEXIST ? 0 : (result == 0 ? 1 : -1)
        }
        guard moved == 1 else { return false }
        try syncDirectory(of: to)
        let source = String(decoding: from.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if directoryName(source) != directoryName(to) { try syncDirectory(of: source) }
        return true
    }

    package static func moveWithoutReplacing(_ from: String, to: String) throws(SystemCallError) -> Bool {
        try moveWithoutReplacing(Array(from.utf8CString), to: to)
    }

    /// Glibc declares `renameat2` only under _GNU_SOURCE, which Swift's Glibc module does not define; the
    /// symbol is there all the same (glibc 2.28 and later).
    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameNoReplace: RenameAt2 =
        unsafeBitCast(dlsym(nil, "renameat2"), to: RenameAt2.self)

    /// Removes `path` for good and syncs its directory; a file already gone is no error.
    package static func remove(_ path: String) throws(SystemCallError) {
        if unlink(path) == -1 && errno != ENOENT { throw SystemCallError("unlink", path: path) }
        try syncDirectory(of: path)
    }

    /// fsyncs the directory holding `path`, so a rename or unlink in it is durable.
    package static func syncDirectory(of path: String) throws(SystemCallError) {
        try syncDirectory(directoryName(path))
    }

    package static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let fd = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY)
        try fd.closeAfter { () throws(SystemCallError) in try fd.sync(path: directory) }
    }

    /// Writes `data` to a temporary file beside `path` and returns the temporary's path.
    private static func writeTemporary(_ data: Data, for path: String) throws(SystemCallError) -> String {
        let temporary =
            directoryName(path) + "/" + temporaryPrefix
            + fitting(
                baseName(path), suffix: "-\(getpid())",
                room: temporaryPrefix.utf8.count)
        let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, permissions: 0o600)
        defer { fd.close() }
        do throws(SystemCallError) {
            try fd.writeAll(data, path: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        return temporary
    }
}

/// `name` shortened at a character boundary so that `name + suffix` and `room` more bytes fit in a file name
/// (NAME_MAX, 255 bytes on Linux file systems).
package func fitting(_ name: String, suffix: String, room: Int = 0) -> String {
    var prefix = Substring(name)
    while prefix.utf8.count + suffix.utf8.count + room > 255 { prefix.removeLast() }
    return prefix + suffix
}

/// The directory part of a path: "/a/b" for "/a/b/c", "." for "c".
package func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The last component of a path.
package func baseName(_ path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
}
