import Glibc

/// Folders opened so that nothing on their path is a link, and files opened relative to them: how a write stays
/// where its path was checked (docs/ARCHITECTURE.md "Output files").
extension FileDescriptor {
    /// Opens the folder at `path` (absolute) one component at a time from `/`, each with `O_NOFOLLOW`: a link
    /// anywhere on the way fails with ELOOP or ENOTDIR instead of being followed. The descriptor is `O_PATH`,
    /// good for the `*at` calls, not for reading.
    package static func openDirectoryWithoutLinks(_ path: String) throws(SystemCallError) -> FileDescriptor {
        var current = try FileDescriptor.open("/", openPath | O_DIRECTORY)
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            let next = try current.closeAfter { () throws(SystemCallError) in
                try current.open(String(component), openPath | O_DIRECTORY | O_NOFOLLOW, path: path)
            }
            current = next
        }
        return current
    }

    /// Opens `name` in this folder (`openat(2)`), close-on-exec.
    /// - Parameter path: names the file in the error.
    package func open(
        _ name: String, _ flags: Int32, permissions: mode_t = 0, path: String? = nil
    ) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(
            rawValue: try retryingOnInterrupt("open", path: path ?? name) {
                openat(rawValue, name, flags | O_CLOEXEC, permissions)
            })
    }
}

/// `O_PATH` (010000000 on every Linux architecture Swift runs on): Glibc declares it only under _GNU_SOURCE, which
/// Swift's Glibc module does not define.
private let openPath: Int32 = 0o10_000_000
