import struct FoundationEssentials.Date

/// The two clocks the core is told about, sampled by the caller: the system's wall clock, which a user can set,
/// and the monotonic clock, which ages fixes and readings.
package struct Now: Hashable, Sendable {
    package var wall: Date
    /// Seconds of `CLOCK_MONOTONIC`.
    package var monotonic: Double

    package init(wall: Date, monotonic: Double) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// The same instant `seconds` later on both clocks.
    package func advanced(by seconds: Double) -> Now {
        Now(wall: wall.addingTimeInterval(seconds), monotonic: monotonic + seconds)
    }
}
