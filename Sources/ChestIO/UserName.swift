import Glibc

/// A user as messages name them: "nobody (uid 65534)", or "uid 1001" when the password database has no entry.
package func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return "\(String(cString: name)) (uid \(uid))"
}
