import FoundationEssentials

/// Programs found the way a shell finds them, through `PATH`.
enum SearchPath {
    /// The path of the first executable called `name` in `PATH`.
    static func find(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
