import ChestIO
import Foundation
import Glibc
import Synchronization

/// A child process a test starts, signals and reaps, always through this object: it sends no signal once the
/// process is reaped, because by then its pid may be another process's. With pid_max at 32,768 and thousands of
/// processes a run, a SIGTERM sent twice to a reaped pid once stopped another test's chestd.
///
/// It is ended with SIGTERM first: gpsfake and gpsd clean up on SIGTERM, and a killed gpsfake orphans its gpsd.
/// It is started by `Subprocess.spawn`, with an empty signal mask, rather than Foundation's `Process`, whose
/// children inherit the test threads' blocked signals and then ignore SIGTERM for good.
package final class TestProcess: Sendable {
    package let pid: pid_t
    /// Where standard output goes (standard error too, unless the process was started with a file of its own).
    package let output: URL
    /// The raw wait status, once reaped. Signals are sent under this lock, so none races a reap.
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `environment` added to this process's environment, its output and errors in one file.
    package convenience init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        output: URL
    ) throws {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        try self.init(
            executable, arguments,
            wholeEnvironment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdout: output.path, stderr: output.path)
    }

    /// Starts `executable` with exactly `wholeEnvironment`, its output and errors appended to their files.
    package init(
        _ executable: String, _ arguments: [String], wholeEnvironment: [String: String], stdout: String,
        stderr: String, directory: String? = nil
    ) throws {
        output = URL(fileURLWithPath: stdout)
        pid = try Subprocess.spawn(
            executable, arguments, environment: wholeEnvironment, stdout: stdout, stderr: stderr,
            directory: directory)
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

    /// Sends `signal` unless the process has been reaped; whether it was sent.
    @discardableResult
    package func signal(_ signal: Int32) -> Bool {
        status.withLock { status in
            guard status == nil else { return false }
            return kill(pid, signal) == 0
        }
    }

    /// Waits for the process to exit, however long it takes; its exit code (128 + N after signal N).
    @discardableResult
    package func wait() -> Int32 {
        // WNOWAIT leaves it a zombie, so its pid stays reserved until the reap below, under the lock.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let raw = status.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, 0) == pid { status = raw }
            }
            return status ?? 0
        }
        return ProcessSpawner.exitStatus(fromWaitStatus: raw)
    }

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
        guard signal(SIGTERM) else { return true }
        if waitForExit(timeout: timeout) != nil { return true }
        signal(SIGKILL)
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
