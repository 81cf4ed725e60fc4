import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

@testable import ChestIO

/// A fresh directory under /tmp, removed when the test is done with it.
private final class ScratchDirectory {
    let path: String

    init() throws {
        path = try Directory.makeTemporary("chest-hook", in: "/tmp")
    }

    func contents(_ name: String) throws -> String {
        try String(contentsOfFile: "\(path)/\(name)", encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Counts 10 ms sleeps for `seconds`: it only gets far if the concurrency pool is free to run it.
/// The wake-ups come from a queue of their own, not `Task.sleep`, whose timer is served by the shared pool: tests
/// running beside this one that keep both pool threads busy (an Argon2id sweep) would stop the ticks as surely as a
/// blocked thread.
private func tick(for seconds: Double) async -> Int {
    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var ticks = 0
    while ContinuousClock.now < end {
        await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
            tickQueue.asyncAfter(deadline: .now() + .milliseconds(10)) { resumed.resume() }
        }
        ticks += 1
    }
    return ticks
}

private let tickQueue = DispatchQueue(label: "hook-runner-tests.tick")

/// Whether `pid` is gone or only a zombie (the container's PID 1 may never reap orphans).
private func isDead(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(close, offsetBy: 2)] == "Z"
}

@Suite struct HookRunnerTests {
    let unlocked = ChestEvent.unlocked(
        Unlock(
            id: MessageID("7f3a9c0000000000000000000000abcd")!, title: #"Birthday "surprise" $HOME `id`"#, page: 2,
            set: .b, at: ISO8601.parse("2026-12-24T18:00:00Z")!, text: "Under the oak"))
    var unlockedJSON: String { String(decoding: ChestJSON.line(unlocked), as: UTF8.self) }

    @Test func hookGetsTheEventOnStdinAndInItsEnvironment() async throws {
        let scratch = try ScratchDirectory()
        let hook = #"""
            cat > "$OUT/stdin.json"
            printf '%s\n' "$CHEST_EVENT" "$CHEST_ID" "$CHEST_TITLE" "$CHEST_PAGE" "$CHEST_SET" "$CHEST_AT" \
                "$CHEST_TEXT" "${CHEST_FILE-unset}" "${NOTIFY_SOCKET-unset}" "${WATCHDOG_USEC-unset}" > "$OUT/vars"
            printf '%s' "$CHEST_EVENT_JSON" > "$OUT/json"
            """#
        let outcome = await HookRunner().run(
            command: hook, event: unlocked,
            environment: [
                "PATH": "/usr/bin:/bin", "OUT": scratch.path,
                "NOTIFY_SOCKET": "/run/user/1000/systemd/notify", "WATCHDOG_USEC": "30000000",
            ],
            timeout: 10)

        #expect(outcome == .exited(status: 0))
        #expect(try scratch.contents("stdin.json") == unlockedJSON)
        #expect(try scratch.contents("json") == unlockedJSON)
        #expect(
            try scratch.contents("vars") == """
                unlocked
                7f3a9c0000000000000000000000abcd
                Birthday "surprise" $HOME `id`
                2
                B
                2026-12-24T18:00:00Z
                Under the oak
                unset
                unset
                unset

                """)
    }

    @Test func exitStatusIsReported() async {
        let runner = HookRunner()
        #expect(
            await runner.run(command: "exit 3", event: unlocked, environment: [:], timeout: 10)
                == .exited(status: 3))
        #expect(
            await runner.run(command: "kill -9 $$", event: unlocked, environment: [:], timeout: 10)
                == .exited(status: 128 + SIGKILL))
        #expect(
            await runner.run(
                command: "no-such-command-for-chest", event: unlocked,
                environment: ["PATH": "/usr/bin:/bin"], timeout: 10)
                == .exited(status: 127))
    }

    @Test(.singleThread) func hangingHookIsKilledWhileOtherWorkContinues() async throws {
        let scratch = try ScratchDirectory()
        let start = ContinuousClock.now
        // Ticks for as long as the hook may run: a pool held by the hook would tick once or twice, a free one about
        // 50 times (fewer on a loaded machine).
        async let ticks = tick(for: 0.5)
        let outcome = await HookRunner().run(
            command: #"echo $$ > "$OUT/shell.pid"; sleep 1000 & echo $! > "$OUT/sleep.pid"; wait"#,
            event: unlocked, environment: ["PATH": "/usr/bin:/bin", "OUT": scratch.path], timeout: 0.5)
        let elapsed = ContinuousClock.now - start

        #expect(outcome == .timedOut)
        #expect(elapsed < .seconds(3))
        #expect(await ticks >= 5)
        let shell = try #require(Int32(scratch.contents("shell.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeper = try #require(Int32(scratch.contents("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(shell, 0) == -1 && errno == ESRCH, "the hook's shell was reaped")
        let sleeperDied = await holdsWithin(1, checking: { isDead(sleeper) })
        #expect(sleeperDied, "the whole process group was killed, not just the shell")
    }

    @Test func hookIgnoringSIGTERMGetsSIGKILL() async {
        let start = ContinuousClock.now
        let outcome = await HookRunner(killGrace: 0.3).run(
            command: "trap '' TERM; sleep 1000", event: unlocked,
            environment: ["PATH": "/usr/bin:/bin"], timeout: 0.2)
        #expect(outcome == .timedOut)
        // Killed, not waited for (1000 s). A loaded machine can take half a minute to start and reap a process while
        // every other suite runs beside this one (37 s was seen at a load of 18), so the bound is far from both.
        #expect(ContinuousClock.now - start < .seconds(300))
    }

    @Test(.singleThread) func manyHangingHooksDoNotStarveThePool() async {
        let start = ContinuousClock.now
        async let ticks = tick(for: 0.4)
        let outcomes = await withTaskGroup(of: HookOutcome.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    await HookRunner().run(
                        command: "sleep 1000", event: .rejected(file: "a", reason: "b"),
                        environment: ["PATH": "/usr/bin:/bin"], timeout: 0.6)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: .timedOut, count: 6))
        #expect(ContinuousClock.now - start < .seconds(4))
        #expect(await ticks >= 8)
    }

    @Test func largeEventReachesStdin() async throws {
        let scratch = try ScratchDirectory()
        let title = String(repeating: "x", count: 100_000)
        let event = ChestEvent.ingested(MessageID("ab000000000000000000000000000000")!, title: title)
        let outcome = await HookRunner().run(
            command: #"wc -c > "$OUT/count""#, event: event,
            environment: ["PATH": "/usr/bin:/bin", "OUT": scratch.path], timeout: 10)
        #expect(outcome == .exited(status: 0))
        #expect(
            try Int(scratch.contents("count").trimmingCharacters(in: .whitespacesAndNewlines))
                == ChestJSON.line(event).count)
    }

    @Test func missingExecutableFailsToStart() async {
        let outcome = await ChildProcess.run(
            executable: "/nonexistent/chest-hook", arguments: [], environment: [:], input: Data(),
            timeout: 1, killGrace: 1)
        guard case .failedToStart(let reason) = outcome else {
            Issue.record("expected failedToStart, got \(outcome)")
            return
        }
        #expect(reason.contains("No such file"))
    }

    @Test func eventVariablesFollowTheEventsFields() {
        let event = ChestEvent.gpsd(connected: false, server: "localhost:2947", reason: "connection refused")
        let variables = HookRunner.eventVariables(event, json: ChestJSON.line(event))
        #expect(variables["CHEST_EVENT"] == "gpsd")
        #expect(variables["CHEST_CONNECTED"] == "false")
        #expect(variables["CHEST_SERVER"] == "localhost:2947")
        #expect(variables["CHEST_REASON"] == "connection refused")
        #expect(
            variables.keys.sorted() == [
                "CHEST_CONNECTED", "CHEST_EVENT", "CHEST_EVENT_JSON", "CHEST_REASON", "CHEST_SERVER",
            ])
        let fix = ChestEvent.fix(FixSummary(mode: 3, latitude: 1.5, longitude: 2, altitudeMSL: nil))
        let fixVariables = HookRunner.eventVariables(fix, json: ChestJSON.line(fix))
        #expect(fixVariables["CHEST_ALTITUDE_MSL"] == nil)
        #expect(fixVariables["CHEST_LATITUDE"] == "1.5")
    }
}
