import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Runs a short-lived command with bytes on its stdin and a deadline, without ever blocking the Swift
/// concurrency pool: a dedicated thread waits for the child, a Dispatch timer enforces the deadline.
///
/// The child gets its own process group, so the deadline kills whatever it started too; default signal
/// dispositions and an empty signal mask, so a daemon that blocks or ignores SIGTERM for its own signal
/// handling does not pass that on; its stdout and stderr go to our stderr (the journal under systemd).
enum ChildProcess {
    /// Variables that tell a process it is the service's main process; a child must not inherit them.
    static let serviceVariables: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    ]

    /// Serialises descriptor creation with spawning, so that our own pipe is never inherited by a
    /// concurrently spawned sibling in the moment before it is marked close-on-exec.
    private static let spawnLock = Mutex(())

    /// - Parameter argv0: the name the child is called by (default: `executable`; `HelperProcess` runs the program
    ///   itself under a companion's name).
    /// - Parameter output: a file for the child's standard output; without one it goes to our stderr.
    static func run(
        executable: String, argv0: String? = nil, arguments: [String], environment: [String: String], input: Data,
        timeout: Double, killGrace: Double, output: String? = nil
    ) async -> HookOutcome {
        await withCheckedContinuation { continuation in
            let pid: pid_t
            switch spawn(
                executable: executable, argv0: argv0, arguments: arguments, environment: environment,
                input: input, output: output)
            {
            case .failure(let reason):
                continuation.resume(returning: .failedToStart(reason: reason.text))
                return
            case .success(let spawned):
                pid = spawned
            }
            let supervisor = Supervisor(pid: pid, continuation: continuation)
            OSThread.start(name: "chest-child-\(pid)") { supervisor.waitForExit() }
            DispatchQueue.global().asyncAfter(deadline: .now() + max(timeout, 0)) {
                supervisor.timeUp(killGrace: killGrace)
            }
        }
    }

    private struct SpawnFailure: Error { let text: String }

    private static func spawn(
        executable: String, argv0: String?, arguments: [String], environment: [String: String], input: Data,
        output: String?
    ) -> Result<pid_t, SpawnFailure> {
        spawnLock.withLock { _ in
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return .failure(SpawnFailure(text: "pipe: \(Errno.current)")) }
            let (readEnd, writeEnd) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
            readEnd.setCloseOnExec()
            writeEnd.setCloseOnExec()
            defer { readEnd.close() }

            // The input goes in before the child starts, so no writer has to wait for a reader that
            // may never read, and no SIGPIPE can hit us.
            let filled = fill(pipe: writeEnd, with: input)
            writeEnd.close()
            if let failure = filled { return .failure(failure) }

            var actions: [ProcessSpawner.FileAction] = [.duplicate(readEnd.rawValue, as: 0)]
            if let output {
                actions.append(
                    .open(1, path: output, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, permissions: 0o600))
            } else {
                actions.append(.duplicate(2, as: 1))
            }
            actions.append(.closeFrom(3))
            do throws(Errno) {
                return .success(
                    try ProcessSpawner.spawn(
                        executable, argv0: argv0, arguments: arguments,
                        environment: environment.filter { !serviceVariables.contains($0.key) },
                        fileActions: actions, newProcessGroup: true))
            } catch {
                return .failure(SpawnFailure(text: "\(argv0 ?? executable): \(error)"))
            }
        }
    }

    private static func fill(pipe fd: FileDescriptor, with input: Data) -> SpawnFailure? {
        guard !input.isEmpty else { return nil }
        fd.setNonBlocking(true)
        if input.count > 65536 {
            // F_SETPIPE_SZ (Linux, 1031) is a GNU name Glibc does not import; the default capacity is 64 KiB.
            _ = fcntl(fd.rawValue, 1031, Int32(min(input.count, 1 << 20)))
        }
        guard (try? fd.writeAll(input)) != nil else {
            return SpawnFailure(text: "input of \(input.count) bytes does not fit in a pipe")
        }
        return nil
    }
}

/// Watches one child: reaps it, enforces its deadline, and resumes the caller exactly once.
private final class Supervisor: Sendable {
    private struct State {
        /// Set before the child is reaped: from then on its process group id may be reused, so no signal may be sent.
        var exited = false
        var timedOut = false
        var resumed = false
    }

    private let pid: pid_t
    private let continuation: CheckedContinuation<HookOutcome, Never>
    private let state = Mutex(State())

    init(pid: pid_t, continuation: CheckedContinuation<HookOutcome, Never>) {
        self.pid = pid
        self.continuation = continuation
    }

    func waitForExit() {
        // WNOWAIT leaves the child a zombie, which keeps its pid and group id reserved until the state
        // says it is gone.
        var info = siginfo_t()
        _ = try? retryingOnInterrupt("waitid") { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        let timedOut = state.withLock { state in
            state.exited = true
            return state.timedOut
        }
        let status = ProcessSpawner.wait(for: pid)
        finish(timedOut ? .timedOut : .exited(status: status ?? -1))
    }

    func timeUp(killGrace: Double) {
        let signalled = state.withLock { state in
            guard !state.exited else { return false }
            state.timedOut = true
            kill(-pid, SIGTERM)
            return true
        }
        guard signalled else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(killGrace, 0)) { [self] in
            let stillRunning = state.withLock { state in
                guard !state.exited else { return false }
                kill(-pid, SIGKILL)
                return true
            }
            guard stillRunning else { return }
            // A process stuck in uninterruptible sleep outlives even SIGKILL; the caller does not wait for it.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in finish(.timedOut) }
        }
    }

    private func finish(_ outcome: HookOutcome) {
        let first = state.withLock { state in
            defer { state.resumed = true }
            return !state.resumed
        }
        if first { continuation.resume(returning: outcome) }
    }
}
