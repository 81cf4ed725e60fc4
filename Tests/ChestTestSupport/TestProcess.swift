import Foundation
import Glibc
import Synchronization

/// A child process a test starts and ends with SIGTERM, never SIGKILL: gpsfake and gpsd clean up on SIGTERM,
/// and a killed gpsfake orphans its gpsd.
///
/// It is spawned with posix_spawn rather than Foundation's `Process`, because a child inherits the signal mask
/// of the spawning thread, and the threads that run Swift tests block almost every signal: a gpsfake started
/// with `Process` from a test ignores SIGTERM for good. Here the child starts with an empty mask and default
/// signal actions.
public final class TestProcess: Sendable {
    public let pid: pid_t
    /// Where standard output and standard error go.
    public let output: URL
    private let status = Mutex<Int32?>(nil)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with `environment` added to this process's environment.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                output: URL) throws {
        self.output = output
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the process has not exited yet.
    public var isRunning: Bool { exitStatus == nil }

    /// The raw wait status once the process has exited (reaping it), nil while it runs.
    public var exitStatus: Int32? {
        status.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            }
            return status
        }
    }

    /// Everything the process wrote so far.
    public var outputText: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for the process to exit; its exit code (128 + N after signal N), or nil.
    @discardableResult
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while exitStatus == nil, Date() < deadline { usleep(20_000) }
        return exitStatus.map { raw in raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F) }
    }

    /// Sends SIGTERM and waits up to `timeout` seconds; whether the process has ended.
    @discardableResult
    public func terminate(timeout: Double = 5) -> Bool {
        guard isRunning else { return true }
        kill(pid, SIGTERM)
        return waitForExit(timeout: timeout) != nil
    }

    deinit { terminate() }
}

/// A fresh private directory under the system's temporary directory.
public func makeTemporaryDirectory(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
