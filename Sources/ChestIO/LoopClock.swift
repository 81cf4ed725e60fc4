import ChestCore
import FoundationEssentials

/// Where a loop reads the time and aims its timers: the system's clocks in chestd (`SystemClock`), a clock the test
/// advances in tests that drive the loop in process, as swift-nio's EmbeddedEventLoop (docs/ARCHITECTURE.md "The
/// daemon in process").
package protocol LoopClock: Sendable {
    /// Both clocks, sampled together.
    func now() -> Now
    /// `now().monotonic` alone, for the fix path's stamps.
    func monotonic() -> Double
    /// A one-shot timer aimed at instants of this clock's wall time; `handler` runs on a thread of the clock's.
    func makeTimer(_ handler: @escaping @Sendable () -> Void) -> any LoopTimer
}

/// A one-shot timer made by a `LoopClock`.
package protocol LoopTimer: Sendable {
    /// Fires once at `seconds` since 1970 on the clock's wall time, at once when that is past, or never when nil.
    func aim(at seconds: Double?)
    func stop()
}

extension WakeTimer: LoopTimer {}

/// The system's clocks: `Date()`, `CLOCK_MONOTONIC` and libdispatch's wall-clock timers.
package struct SystemClock: LoopClock {
    package init() {}

    package func now() -> Now { Now(wall: Date(), monotonic: MonotonicClock.now()) }

    package func monotonic() -> Double { MonotonicClock.now() }

    package func makeTimer(_ handler: @escaping @Sendable () -> Void) -> any LoopTimer { WakeTimer(handler: handler) }
}
