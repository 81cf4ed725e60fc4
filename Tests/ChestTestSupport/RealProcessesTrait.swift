import Foundation
import Testing

/// For suites whose tests block their thread while real processes work (gpsd, gpsfake, chestd, mosquitto):
/// each test case runs on threads of its own, at most `RealProcessesTrait.slots` at once.
///
/// Swift Testing runs test cases in parallel on the cooperative pool, which has one thread per core; a
/// synchronous test that waits for a process holds one of them, so on a 2-core machine only two such tests
/// would run at a time, however idle the machine. Under this trait they wait side by side instead, and pure
/// tests keep the pool.
public struct RealProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// How many test cases under this trait run at once: `CHEST_TEST_PROCESS_SLOTS`, 6 by default, enough to
    /// keep two cores busy with tests that mostly wait, few enough that chestd keeps up with gpsfake's feed.
    public static let slots = Int(ProcessInfo.processInfo.environment["CHEST_TEST_PROCESS_SLOTS"] ?? "").flatMap {
        $0 > 0 ? $0 : nil
    } ?? 6

    static let executor = ThreadPerJobExecutor()
    static let gate = Gate(slots: slots)

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        await Self.gate.enter()
        do {
            try await withTaskExecutorPreference(Self.executor) { try await function() }
        } catch {
            await Self.gate.leave()
            throw error
        }
        await Self.gate.leave()
    }

    /// A counting semaphore for tasks.
    actor Gate {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(slots: Int) { free = slots }

        func enter() async {
            if free > 0 {
                free -= 1
            } else {
                await withCheckedContinuation { waiting.append($0) }
            }
        }

        func leave() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }
}

extension Trait where Self == RealProcessesTrait {
    /// Runs each test case on threads of its own, a few at a time (`RealProcessesTrait`).
    public static var realProcesses: Self { RealProcessesTrait() }
}

/// Runs each job on a new thread, so a job that blocks (a test waiting for a process) holds no shared thread.
final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
