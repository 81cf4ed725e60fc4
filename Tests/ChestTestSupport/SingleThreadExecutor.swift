import Foundation
import Testing

/// One thread of its own that runs every job given to it, in order. A test that must show some code never
/// blocks the thread it is awaited on runs there (`withTaskExecutorPreference`), away from the shared pool,
/// which other tests running in parallel may keep busy.
package final class SingleThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    package init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "single-thread-executor"
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}

/// Runs a test on a `SingleThreadExecutor` of its own: everything it awaits, and its child tasks, share that one
/// thread, so a call that blocks it shows (`.singleThread`).
package struct SingleThreadTrait: TestTrait, TestScoping {
    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(SingleThreadExecutor()) { try await function() }
    }
}

extension Trait where Self == SingleThreadTrait {
    /// Runs the test on one thread of its own (`SingleThreadTrait`).
    package static var singleThread: Self { SingleThreadTrait() }
}
