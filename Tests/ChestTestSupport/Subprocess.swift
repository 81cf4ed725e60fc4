import ChestIO
import Foundation
import Glibc

/// Runs programs the way a user's shell would: posix_spawn, output to files (no pipe to fill up), waitpid.
package enum Subprocess {
    package struct Outcome: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs `path` with `arguments` and waits for it.
    @discardableResult
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil
    ) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chest-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.path + ".out"
        let err = scratch.path + ".err"
        defer {
            unlink(out)
            unlink(err)
        }
        let pid = try spawn(path, arguments, environment: environment, stdout: out, stderr: err, directory: directory)
        let status = wait(pid)
        return Outcome(
            status: status, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Starts `path` in the background with its output appended to files; returns its pid.
    ///
    /// The child starts with an empty signal mask and default signal actions (`ProcessSpawner`): the threads that
    /// run Swift tests block almost every signal, so a child started any other way would ignore SIGTERM for good.
    package static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String],
        stdout: String, stderr: String, directory: String? = nil
    ) throws -> pid_t {
        // posix_spawn_file_actions_addchdir_np is a GNU extension Glibc does not import: let a shell change directory.
        let (program, words) =
            directory.map { ("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", $0, path] + arguments) }
            ?? (path, arguments)
        do throws(Errno) {
            return try ProcessSpawner.spawn(
                program, arguments: words, environment: environment,
                fileActions: [
                    .open(0, path: "/dev/null", flags: O_RDONLY, permissions: 0),
                    .open(1, path: stdout, flags: O_WRONLY | O_CREAT | O_APPEND, permissions: 0o600),
                    .open(2, path: stderr, flags: O_WRONLY | O_CREAT | O_APPEND, permissions: 0o600),
                    // The test process holds other tests' sockets and files: a chestd must not inherit them.
                    .closeFrom(3),
                ])
        } catch {
            throw SpawnFailure(description: "posix_spawn \(path): \(error)")
        }
    }

    /// Waits for a child and returns its exit status (128 + signal when killed).
    package static func wait(_ pid: pid_t) -> Int32 {
        ProcessSpawner.wait(for: pid) ?? 0
    }
}

/// A program that could not be started.
package struct SpawnFailure: Error, CustomStringConvertible {
    package let description: String
}
