import Glibc

/// The folder of chestd's control socket, which must be this user's alone: chestd refuses to listen in any other,
/// and `chest` refuses to talk through any other, since whoever can write there can put their own socket in
/// chestd's place (docs/SECURITY.md "2. The client's socket").
package enum SocketDirectory {
    /// Why `directory` cannot be trusted with the socket, nil when it is this user's and closed to others (or is
    /// not there, which the connection then reports as chestd not running).
    package static func whyUntrusted(_ directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return errno == ENOENT ? nil : "cannot be checked: \(Errno.current)" }
        if info.st_uid != getuid() { return "belongs to \(userName(info.st_uid)), not to you" }
        if info.st_mode & 0o077 != 0 {
            return "is open to other users (mode \(String(info.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }

}
