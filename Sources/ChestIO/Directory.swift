import Foundation
import Glibc

/// Directories the daemon owns.
public enum Directory {
    /// Creates `path` and its parents with mode 0700; an existing directory is fine.
    public static func create(_ path: String) throws(SystemCallError) {
        if isDirectory(path) { return }
        let parent = directoryName(path)
        if parent != path && !isDirectory(parent) { try create(parent) }
        if mkdir(path, 0o700) == -1 && errno != EEXIST { throw SystemCallError("mkdir", path: path) }
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory, without "." and "..".
    public static func names(in path: String) throws(SystemCallError) -> [String] {
        guard let dir = opendir(path) else { throw SystemCallError("opendir", path: path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

