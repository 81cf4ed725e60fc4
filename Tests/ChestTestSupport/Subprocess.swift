import Foundation
import Glibc

/// Runs programs the way a user's shell would: posix_spawn, output to files (no pipe to fill up), waitpid.
public enum Subprocess {
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `path` with `arguments` and waits for it.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           directory: String? = nil) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chest-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.path + ".out", err = scratch.path + ".err"
        defer { unlink(out); unlink(err) }
        let pid = try spawn(path, arguments, environment: environment, stdout: out, stderr: err, directory: directory)
        let status = wait(pid)
        return Outcome(status: status, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Starts `path` in the background with its output appended to files; returns its pid.
    ///
    /// The child starts with an empty signal mask and default signal actions: a child inherits the mask of the
    /// spawning thread, and the threads that run Swift tests block almost every signal, so a child started any
    /// other way would ignore SIGTERM for good.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String: String],
                             stdout: String, stderr: String, directory: String? = nil) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // posix_spawn_file_actions_addchdir_np is a GNU extension Glibc does not import: let a shell change directory.
        let (program, words) = directory.map { ("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", $0, path] + arguments) }
            ?? (path, arguments)
        let argv = ([program] + words).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t(0)
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailure(description: "posix_spawn \(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Waits for a child and returns its exit status (128 + signal when killed).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// A program that could not be started.
public struct SpawnFailure: Error, CustomStringConvertible {
    public let description: String
}
