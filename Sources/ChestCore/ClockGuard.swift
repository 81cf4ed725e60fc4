import struct Foundation.Date

/// Decides which time a time lock trusts (docs/DESIGN.md "Lock rules"): the system clock, unless GPS time, confirmed by three
/// consecutive timed 3D fixes, shows the clock set ahead by more than a minute. A receiver whose time is a
/// whole number of 1024-week periods behind has the week-rollover bug: that is reported and not trusted. GPS time is carried forward
/// between fixes by the monotonic clock, so setting the clock forward after the last fix opens nothing either.
public struct ClockGuard: Hashable, Sendable {
    /// GPS time at a monotonic instant, once confirmed.
    public private(set) var anchor: (gps: Date, monotonic: Double)?
    /// Wall clock minus GPS time at the last confirmed fix, in seconds; positive when the clock is ahead.
    public private(set) var offset: Double?
    /// Set when the receiver's time is off by more than a year: a week-rollover bug, reported and not trusted.
    public private(set) var rolloverSuspected = false
    private var consecutive = 0
    private var lastTime: Date?

    public static let tolerance = 60.0
    /// GPS weeks roll over every 1024 weeks; an old receiver then reports a time that many weeks behind.
    public static let rolloverPeriod = 1024.0 * 7 * 86_400

    /// Whether the system clock is ahead of GPS time by more than a year and within a few days of a whole number of
    /// rollover periods: the receiver is wrong, not the clock. Any other large offset means the clock was set.
    public static func isWeekRollover(_ offset: Double) -> Bool {
        guard offset > 366 * 86_400 else { return false }
        let periods = (offset / rolloverPeriod).rounded()
        return periods >= 1 && abs(offset - periods * rolloverPeriod) < 7 * 86_400
    }
    public static let confirmations = 3

    public init() {}

    /// Takes a fix's time into account; returns true when the offset changed noticeably (worth an event).
    @discardableResult
    public mutating func observe(_ fix: Fix, now: Now) -> Bool {
        guard fix.mode >= 3, let time = fix.time, fix.isFresh(at: now.monotonic) else {
            if fix.mode < 3 { consecutive = 0 }
            return false
        }
        // Several reports of one epoch carry the same time: the epoch counts once.
        guard time != lastTime else { return false }
        lastTime = time
        consecutive += 1
        guard consecutive >= Self.confirmations else { return false }
        // The fix's time was true when it was received; carry it to `now` by the monotonic clock.
        let gpsNow = time.addingTimeInterval(now.monotonic - fix.receivedAt)
        let newOffset = now.wall.timeIntervalSince(gpsNow)
        if Self.isWeekRollover(newOffset) {
            let changed = !rolloverSuspected
            rolloverSuspected = true
            return changed
        }
        let changed = offset.map { abs($0 - newOffset) > 1 } ?? true
        rolloverSuspected = false
        offset = newOffset
        anchor = (gpsNow, now.monotonic)
        return changed
    }

    /// The time time locks compare against.
    public func trustedTime(_ now: Now) -> Date {
        guard let anchor else { return now.wall }
        let gpsNow = anchor.gps.addingTimeInterval(now.monotonic - anchor.monotonic)
        return now.wall.timeIntervalSince(gpsNow) > Self.tolerance ? gpsNow : now.wall
    }

    /// How far the system clock is ahead of trusted time right now (0 when it is trusted).
    public func correction(_ now: Now) -> Double { now.wall.timeIntervalSince(trustedTime(now)) }

    public static func == (a: ClockGuard, b: ClockGuard) -> Bool {
        a.offset == b.offset && a.consecutive == b.consecutive && a.rolloverSuspected == b.rolloverSuspected
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(offset) }
}
