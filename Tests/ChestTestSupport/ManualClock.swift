import ChestCore
import ChestIO
import Foundation

/// A clock that moves only when the test says, as swift-nio's EmbeddedEventLoop's `advanceTime(by:)`: its timers
/// fire as `advance(by:)` passes their instant (or as they are aimed at one already past), on the caller's thread.
package final class ManualClock: LoopClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Now
    private var timers: [ManualTimer] = []

    /// Starts at `wall` (the system's time by default) and an arbitrary monotonic instant.
    package init(wall: Date = Date(), monotonic: Double = 1_000) {
        current = Now(wall: wall, monotonic: monotonic)
    }

    package func now() -> Now { lock.withLock { current } }

    package func monotonic() -> Double { now().monotonic }

    package func makeTimer(_ handler: @escaping @Sendable () -> Void) -> any LoopTimer {
        let timer = ManualTimer(clock: self, handler: handler)
        lock.withLock { timers.append(timer) }
        return timer
    }

    /// Moves both clocks `seconds` on, firing every timer whose instant that passes, earliest first.
    package func advance(by seconds: Double) {
        let (now, timers) = lock.withLock {
            current = current.advanced(by: seconds)
            return (current, self.timers)
        }
        let due = timers.compactMap { timer in timer.deadline.map { (timer, $0) } }
            .filter { $0.1 <= now.wall.timeIntervalSince1970 }.sorted { $0.1 < $1.1 }
        for (timer, _) in due { timer.fireIfDue(at: now.wall.timeIntervalSince1970) }
    }

    fileprivate func forget(_ stopped: ManualTimer) { lock.withLock { timers.removeAll { $0 === stopped } } }
}

/// A `ManualClock`'s timer.
private final class ManualTimer: LoopTimer, @unchecked Sendable {
    private let lock = NSLock()
    private weak var clock: ManualClock?
    private let handler: @Sendable () -> Void
    private var aimedAt: Double?

    init(clock: ManualClock, handler: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.handler = handler
    }

    var deadline: Double? { lock.withLock { aimedAt } }

    func aim(at seconds: Double?) {
        lock.withLock { aimedAt = seconds }
        if let clock { fireIfDue(at: clock.now().wall.timeIntervalSince1970) }
    }

    /// Fires once when aimed at or before `now`.
    func fireIfDue(at now: Double) {
        let fires = lock.withLock {
            guard let aimedAt, aimedAt <= now else { return false }
            self.aimedAt = nil
            return true
        }
        if fires { handler() }
    }

    func stop() {
        lock.withLock { aimedAt = nil }
        clock?.forget(self)
    }
}
