import struct FoundationEssentials.Date

/// How far the receiver has been carried: the length of its track, counted in steps between positions far enough
/// apart that the receiver's own scatter cannot make them (docs/HUNTS.md "Distance walked"). A receiver standing
/// still wanders a few metres around where it is; summing every fix's distance from the last would count that
/// wander as walking, metres a minute. So a step counts only once the position is more than `minimumStep`, or one and
/// a half times the fix's error estimate, from where the last step ended; a fix too inaccurate, or implying a speed
/// no one on foot, a bicycle or a car reaches (a wild fix), moves nothing. A track is so counted short by at most a
/// step at its end and the corners a step cuts.
package struct WalkedDistance: Sendable {
    /// Metres walked so far.
    package private(set) var metres = 0.0
    /// Where the last counted step ended, and the receiver's time of that fix when it had one.
    private var anchor: (position: Coordinate, time: Date?)?

    /// The shortest step counted: more than a good receiver's scatter standing still.
    package static let minimumStep = 10.0
    /// The longest step needed before a step counts, however poor the fixes: beyond it a fix is ignored.
    package static let longestStep = 45.0
    /// Metres per second beyond which a step is a wild fix, not a move.
    package static let fastest = 70.0

    package init() {}

    /// Counts `position` (with its horizontal error estimate, metres, when known) of a fix the receiver dated `time`;
    /// returns whether the distance grew. The speed is judged by the receiver's own times, which a replayed log keeps
    /// however fast it is fed.
    package mutating func observe(_ position: Coordinate, eph: Double?, time: Date?) -> Bool {
        let needed = max(Self.minimumStep, 1.5 * (eph ?? 0))
        guard needed <= Self.longestStep else { return false }
        guard let anchor else {
            self.anchor = (position, time)
            return false
        }
        let step = anchor.position.distance(to: position)
        guard step > needed else { return false }
        if let time, let then = anchor.time, step > Self.fastest * max(time.timeIntervalSince(then), 1) {
            return false
        }
        metres += step
        self.anchor = (position, time)
        return true
    }
}
