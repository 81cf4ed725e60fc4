import Glibc

/// Files of /proc, read whole.
package enum ProcFile {
    /// The whole of a file in /proc, or nil when it cannot be read (a process that has gone). Read to its end, in
    /// pieces: such a file reports a size of 0, and `String(contentsOfFile:)` returned only the first part of
    /// /proc/self/maps, so that most mappings were never released (`Memory`).
    package static func read(_ path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
        defer { fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard let count = try? fd.read(into: &chunk) else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
