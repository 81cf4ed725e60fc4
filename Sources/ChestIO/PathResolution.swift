import FoundationEssentials
import Glibc

/// Follows an output name's links one component at a time, as the kernel's path walk does, to what it names
/// (`OutputFile.Target`), and refuses a link that `fs.protected_symlinks` would refuse: one in a sticky folder
/// others can write to, owned by neither this user nor the folder's owner (docs/SECURITY.md "1. Output paths").
/// The rule is applied here rather than left to the kernel because the name is resolved before it is written
/// (a device is written in place, a file replaced by a rename), and because the setting may be off.
struct PathResolution {
    /// The name as the user gave it, for errors.
    let name: String

    /// Symlinks allowed on the way, as the kernel's own limit (MAXSYMLINKS).
    static let maximumLinks = 40

    func resolve(directory: String?) throws(OutputFile.Refusal) -> OutputFile.Target {
        if name == "-" { return .standardOutput }
        guard !name.isEmpty else { throw failure("open", ENOENT) }
        let start = name.hasPrefix("/") ? name : (directory ?? FileManager.default.currentDirectoryPath) + "/" + name
        var pending = Self.components(start)
        pending.reverse()  // popLast takes the next component
        var resolved: [String] = []
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                _ = resolved.popLast()
                continue
            }
            let path = Self.path(resolved + [component])
            let isLast = pending.isEmpty
            var status = stat()
            if lstat(path, &status) == -1 {
                guard errno == ENOENT, isLast else { throw failure("stat") }
                return .regular(path: path, exists: false, throughLink: links > 0)
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                guard !isLast else { throw failure("open", EISDIR) }
                resolved.append(component)
            case S_IFLNK where isLast && Self.isInProc(path):
                // A link in /proc (`/dev/fd/1` too) names an open file ("pipe:[7]" is no path): let the kernel follow it.
                return try openFileTarget(path)
            case S_IFLNK:
                try mayFollow(link: path, owner: status.st_uid, in: Self.path(resolved))
                links += 1
                guard links <= Self.maximumLinks else { throw failure("open", ELOOP) }
                let target = try linkTarget(path)
                if target.hasPrefix("/") { resolved = [] }
                pending.append(contentsOf: Self.components(target).reversed())
            case S_IFREG:
                guard isLast else { throw failure("open", ENOTDIR) }
                return .regular(path: path, exists: true, throughLink: links > 0)
            default:
                guard isLast else { throw failure("open", ENOTDIR) }
                return .special(path: path)
            }
        }
        throw failure("open", EISDIR)  // the name was a folder: "/" or one ending in ".."
    }

    /// The kernel's rule for following a link (fs.protected_symlinks, `may_follow_link`): outside a sticky folder
    /// others can write to, always; inside one, only when this user or the folder's owner owns the link.
    private func mayFollow(link: String, owner: uid_t, in directory: String) throws(OutputFile.Refusal) {
        var folder = stat()
        guard stat(directory, &folder) == 0 else { throw failure("stat") }
        let stickyAndShared = folder.st_mode & S_ISVTX != 0 && folder.st_mode & S_IWOTH != 0
        guard !stickyAndShared || owner == geteuid() || owner == folder.st_uid else {
            throw .linkNotYours(link: link, owner: owner, directory: directory)
        }
    }

    private func openFileTarget(_ path: String) throws(OutputFile.Refusal) -> OutputFile.Target {
        var status = stat()
        var output = stat()
        guard stat(path, &status) == 0 else { throw failure("stat") }
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

    private func linkTarget(_ path: String) throws(OutputFile.Refusal) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw failure("readlink") }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func path(_ components: [String]) -> String {
        "/" + components.joined(separator: "/")
    }

    private func failure(_ call: String, _ code: Int32? = nil) -> OutputFile.Refusal {
        .system(SystemCallError(call, path: name, errno: code.map(Errno.init) ?? .current))
    }
}
