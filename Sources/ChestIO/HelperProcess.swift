import FoundationEssentials
import Glibc

/// A companion program of chestd's (such as `chest-weather`), run with a request on its standard input and a
/// deadline, its answer read from its standard output.
public enum HelperProcess {
    /// The path of a companion program: beside the running executable, or in `../libexec/chest/` as installed.
    public static func path(of name: String) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let directory = directoryName(executable)
        let installed = directory + "/../libexec/chest/" + name
        return FileManager.default.isExecutableFile(atPath: directory + "/" + name) || !FileManager.default.isExecutableFile(atPath: installed)
            ? directory + "/" + name : installed
    }

    /// Runs `executable` with `input` on its stdin; its stdout, or why there is none.
    public static func run(_ executable: String, input: Data, environment: [String: String] = [:],
                           timeout: Double) async -> Result<Data, ChestError> {
        var template = Array((Directory.temporary + "/chest-helper-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return .failure(ChestError("cannot make a temporary file: \(Errno.current)")) }
        close(fd)
        let output = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(output) }
        let outcome = await ChildProcess.run(executable: executable, arguments: [], environment: environment,
                                             input: input, timeout: timeout, killGrace: 2, output: output)
        guard case .exited(0) = outcome else { return .failure(ChestError("\(baseName(executable)): \(outcome)")) }
        return .success(FileManager.default.contents(atPath: output) ?? Data())
    }
}
