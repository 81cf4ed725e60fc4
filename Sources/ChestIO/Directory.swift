import FoundationEssentials
import Glibc

/// Directories the daemon owns.
package enum Directory {
    /// Creates `path` and its parents with mode 0700; an existing directory is fine.
    package static func create(_ path: String) throws(SystemCallError) {
        if isDirectory(path) { return }
        let parent = directoryName(path)
        if parent != path && !isDirectory(parent) { try create(parent) }
        if mkdir(path, 0o700) == -1 && errno != EEXIST { throw SystemCallError("mkdir", path: path) }
    }

    /// A new private directory (mode 0700, made by mkdtemp) named `prefix` and six random characters, in `parent`
    /// (default the temporary directory, `$TMPDIR` or /tmp).
    package static func makeTemporary(_ prefix: String, in parent: String = temporary) throws(SystemCallError) -> String
    {
        var template = Array((parent + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError("mkdtemp", path: parent) }
        return String(cString: made)
    }

    /// The temporary directory: `$TMPDIR`, else /tmp.
    package static var temporary: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        return String(cString: value)
    }

    /// The user's home: `HOME` in `environment`, else the password database's entry for this user, else /.
    package static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"] { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory, without "." and "..". A name that is not UTF-8 comes out repaired (U+FFFD), so
    /// it no longer names the file: see `rawNames(in:)`.
    package static func names(in path: String) throws(SystemCallError) -> [String] {
        try rawNames(in: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in a directory as the bytes they are, without "." and "..".
    package static func rawNames(in path: String) throws(SystemCallError) -> [[UInt8]] {
        guard let dir = opendir(path) else { throw SystemCallError("opendir", path: path) }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2e] && name != [0x2e, 0x2e] { names.append(name) }
        }
        return names
    }
}
