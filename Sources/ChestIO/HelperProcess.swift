import FoundationEssentials
import Glibc

/// A companion program of chest's (chestd, or chestd's `chest-weather`), run with a request on its standard input
/// and a deadline, its answer read from its standard output.
///
/// A companion is the running program itself called by another name: chest, chestd, chest-walk and chest-weather
/// are one executable that does what its argv[0] names (Sources/chest/main.swift), installed once with links for
/// the other names. So a companion is never looked for on disk: the program starts its own file again, through
/// /proc/self/exe, under the companion's name, wherever and under whichever link it was installed.
package enum HelperProcess {
    /// The running program's own executable file, whatever link or name it was started by.
    package static let ownExecutable = "/proc/self/exe"

    /// Runs the companion `name` (the running program called `name`) with `input` on its stdin; its stdout, or why
    /// there is none.
    package static func run(
        _ name: String, input: Data, environment: [String: String] = [:],
        timeout: Double
    ) async -> Result<Data, ChestError> {
        var template = Array((Directory.temporary + "/chest-helper-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return .failure(ChestError("cannot make a temporary file: \(Errno.current)")) }
        close(fd)
        let output = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(output) }
        let outcome = await ChildProcess.run(
            executable: ownExecutable, argv0: name, arguments: [], environment: environment,
            input: input, timeout: timeout, killGrace: 2, output: output)
        guard case .exited(0) = outcome else { return .failure(ChestError("\(name): \(outcome)")) }
        return .success(FileManager.default.contents(atPath: output) ?? Data())
    }
}
