import Foundation
import Testing

/// For suites whose tests block their thread while real processes work (gpsd, gpsfake, chestd, mosquitto):
/// each test case runs on threads of its own.
///
/// Swift Testing runs test cases in parallel on the cooperative pool, which has one thread per core; a
/// synchronous test that waits for a process holds one of them, so on a 2-core machine only two such tests
/// would run at a time however idle the machine is, and pure tests would wait behind them. Under this trait
/// they wait side by side instead. How many run at once is `make test`'s choice (the Makefile).
///
/// It is also the gate of the fast loop: under `make check` (`CHEST_TESTS=in-process`), a suite or test tagged
/// `.process`, `.gpsd`, `.mosquitto`, `.chromium` or `.package` is cancelled before it starts, since swift test
/// cannot yet filter by tag (README "Development").
package struct RealProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    static let executor = ThreadPerJobExecutor()

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if TestLoop.current == .inProcess, !test.tags.isDisjoint(with: TestLoop.outOfProcessTags) {
            try Test.cancel("make check runs the in-process tests; make test runs this one")
        }
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }
}

extension Trait where Self == RealProcessesTrait {
    /// Runs each test case on threads of its own (`RealProcessesTrait`).
    package static var realProcesses: Self { RealProcessesTrait() }
}

/// Runs each job on a new thread, so a job that blocks (a test waiting for a process) holds no shared thread.
final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
