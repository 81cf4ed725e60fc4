import ChestTestSupport
import Foundation
import Testing

/// scripts/lib.sh, which the demo, the map picture and the benchmarks source.
@Suite(.realProcesses, .tags(.process))
struct ScriptLibraryTests {
    static let library = GPSLogs.packageRoot.path + "/scripts/lib.sh"

    /// The demo stopped its progress job as soon as it had started it, when gpsfake had ended at once: the job's shell
    /// still had the demo's traps, ran the whole cleanup (chestd stopped, the work directory removed) and the demo
    /// carried on to find chestd gone. With `on_exit` only the script's own shell cleans up, once, at its end.
    @Test func aJobStoppedAtOnceLeavesTheCleanupToTheScript() throws {
        let world = ChestHarness()
        let log = world.root + "/log"
        // `true` after the sleep keeps the job a shell of its own rather than sleep itself.
        let script = """
            set -euo pipefail
            . '\(Self.library)'
            cleanup() { echo "cleanup by $BASHPID of $$" >> '\(log)'; }
            on_exit cleanup
            { sleep 5; true; } &
            job=$!
            kill "$job"
            wait "$job" || true
            echo "$$ carries on" >> '\(log)'
            """
        let run = try Subprocess.run("/bin/bash", ["-c", script], environment: world.environment())
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let shell = lines.first?.split(separator: " ").first.map(String.init) ?? "?"
        #expect(lines == ["\(shell) carries on", "cleanup by \(shell) of \(shell)"], "\(lines)")
    }

    /// A SIGTERM ends the script with 143 after its cleanup, and a job's shell it reaches runs none of it.
    @Test func aSignalEndsTheScriptAfterItsCleanup() throws {
        let world = ChestHarness()
        let log = world.root + "/log"
        let script = """
            . '\(Self.library)'
            cleanup() { echo "cleanup by $BASHPID of $$" >> '\(log)'; }
            signalled() { echo "signalled $BASHPID" >> '\(log)'; }
            on_exit cleanup signalled
            { sleep 5; true; } &
            kill -TERM 0
            echo "never" >> '\(log)'
            """
        let run = try Subprocess.run("/usr/bin/setsid", ["/bin/bash", "-c", script], environment: world.environment())
        #expect(run.status == 143, "\(run.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let shell = lines.first?.split(separator: " ").last.map(String.init) ?? "?"
        #expect(lines == ["signalled \(shell)", "cleanup by \(shell) of \(shell)"], "\(lines)")
    }
}
