import ChestIO
import Foundation
import Glibc
import Synchronization

/// A child process a test starts and ends with SIGTERM, never SIGKILL: gpsfake and gpsd clean up on SIGTERM,
/// and a killed gpsfake orphans its gpsd.
///
/// It is started by `Subprocess.spawn`, with an empty signal mask, rather than Foundation's `Process`, whose
/// children inherit the test threads' blocked signals and then ignore SIGTERM for good.
package final class TestProcess: Sendable {
    package let pid: pid_t
    /// Where standard output and standard error go.
    package let output: URL
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `environment` added to this process's environment.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        output: URL
    ) throws {
        self.output = output
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        pid = try Subprocess.spawn(
            executable, arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdout: output.path, stderr: output.path)
    }

    /// Whether the process has not exited yet.
    package var isRunning: Bool { exitStatus == nil }

    /// The raw wait status once the process has exited (reaping it), nil while it runs.
    package var exitStatus: Int32? {
        status.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            }
            return status
        }
    }

    /// Everything the process wrote so far.
    package var outputText: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for the process to exit; its exit code (128 + N after signal N), or nil.
    @discardableResult
    package func waitForExit(timeout: Double) -> Int32? {
        _ = holdsWithin(timeout) { exitStatus != nil }
        return exitStatus.map(ProcessSpawner.exitStatus(fromWaitStatus:))
    }

    /// Sends SIGTERM and waits up to `timeout` seconds, then SIGKILL and 5 s more; whether the process has ended.
    /// A process that outlives its test is an orphan beside the next ones: gpsfake catches SIGTERM, and one whose
    /// gpsd had gone kept running for 40 minutes after its run.
    @discardableResult
    package func terminate(timeout: Double = 5) -> Bool {
        guard isRunning else { return true }
        kill(pid, SIGTERM)
        if waitForExit(timeout: timeout) != nil { return true }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5) != nil
    }

    deinit { terminate() }
}

/// A fresh private directory under the system's temporary directory.
package func makeTemporaryDirectory(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
