import struct FoundationEssentials.Date

/// The two clocks the core is told about, sampled by the caller: the system's wall clock, which a user can set,
/// and the monotonic clock, which ages fixes and readings.
public struct Now: Hashable, Sendable {
    public var wall: Date
    /// Seconds of `CLOCK_MONOTONIC`.
    public var monotonic: Double

    public init(wall: Date, monotonic: Double) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// The same instant `seconds` later on both clocks.
    public func advanced(by seconds: Double) -> Now {
        Now(wall: wall.addingTimeInterval(seconds), monotonic: monotonic + seconds)
    }
}
