import struct FoundationEssentials.Date

/// Decides which time a time lock trusts (docs/DESIGN.md "Lock rules", docs/SECURITY.md "Hardware trust and time"):
/// the system clock, unless GPS time, confirmed by three consecutive timed 3D fixes from a live, consistent,
/// unsuspected feed, shows the clock set ahead by more than a minute; and GPS time whenever that evidence comes
/// from a `hardware` receiver. A receiver whose time is a whole number of 1024-week periods behind has the
/// week-rollover bug: that is reported and not trusted. GPS time is carried forward between fixes by the
/// monotonic clock, so setting the clock forward after the last fix opens nothing either; but the evidence
/// ages out when the feed stops, jumps or turns suspect, so a replayed old track cannot freeze time locks.
package struct ClockGuard: Hashable, Sendable {
    /// GPS time at a monotonic instant, once confirmed.
    package private(set) var anchor: (gps: Date, monotonic: Double)?
    /// Wall clock minus GPS time at the last confirmed fix, in seconds; positive when the clock is ahead.
    package private(set) var offset: Double?
    /// Set when the receiver's time is off by more than a year: a week-rollover bug, reported and not trusted.
    package private(set) var rolloverSuspected = false
    /// The trust level of the fixes that confirmed the anchor.
    package private(set) var evidenceLevel: FixTrust.Level?
    /// Why the last evidence was dropped, for `status`.
    package private(set) var dropped: String?
    private var consecutive = 0
    private var lastTime: Date?
    /// The first confirming fix of the current run: GPS time and the monotonic clock must advance together.
    private var runStart: (gps: Date, monotonic: Double)?

    package static let tolerance = 60.0
    /// GPS weeks roll over every 1024 weeks; an old receiver then reports a time that many weeks behind.
    package static let rolloverPeriod = 1024.0 * 7 * 86_400
    /// Evidence older than this, by the monotonic clock, no longer counts: the feed stopped.
    package static let evidenceLifetime = 30.0
    /// GPS time and the monotonic clock may disagree by this much over a run (receiver and gpsd jitter).
    package static let consistencySlack = 1.0

    /// Whether the system clock is ahead of GPS time by more than a year and within a few days of a whole number of
    /// rollover periods: the receiver is wrong, not the clock. Any other large offset means the clock was set.
    package static func isWeekRollover(_ offset: Double) -> Bool {
        guard offset > 366 * 86_400 else { return false }
        let periods = (offset / rolloverPeriod).rounded()
        return periods >= 1 && abs(offset - periods * rolloverPeriod) < 7 * 86_400
    }
    package static let confirmations = 3

    package init() {}

    /// Takes a fix's time into account; returns true when the offset changed noticeably (worth an event).
    /// - Parameter level: the fix's trust level; a suspect fix drops the evidence.
    @discardableResult
    package mutating func observe(_ fix: Fix, now: Now, level: FixTrust.Level = .unverified) -> Bool {
        if level == .suspect { return forget("the GPS feed is suspect") }
        guard fix.mode.is3D, let time = fix.time, fix.isFresh(at: now.monotonic) else {
            if !fix.mode.is3D { restart() }
            return false
        }
        // Several reports of one epoch carry the same time: the epoch counts once.
        guard time != lastTime else { return false }
        lastTime = time
        // GPS time must advance as the monotonic clock does: a replay faster than real time, or a jump, restarts
        // the count and drops the evidence.
        if let start = runStart, !Self.consistent(start, (time, fix.receivedAt)) {
            let changed = forget("GPS time jumped or ran at the wrong speed")
            runStart = (time, fix.receivedAt)
            consecutive = 1
            return changed
        }
        if runStart == nil { runStart = (time, fix.receivedAt) }
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
        let changed = offset.map { abs($0 - newOffset) > 1 } ?? true || evidenceLevel != level
        rolloverSuspected = false
        offset = newOffset
        anchor = (gpsNow, now.monotonic)
        evidenceLevel = level
        dropped = nil
        return changed
    }

    private static func consistent(_ start: (gps: Date, monotonic: Double), _ end: (gps: Date, monotonic: Double))
        -> Bool
    {
        let gps = end.gps.timeIntervalSince(start.gps)
        let monotonic = end.monotonic - start.monotonic
        return abs(gps - monotonic) <= consistencySlack + 0.1 * monotonic
    }

    private mutating func restart() {
        consecutive = 0
        runStart = nil
    }

    /// Drops the evidence (the feed stopped or cannot be believed); returns whether there was any.
    @discardableResult
    package mutating func forget(_ why: String) -> Bool {
        restart()
        lastTime = nil
        guard anchor != nil else { return false }
        anchor = nil
        offset = nil
        evidenceLevel = nil
        dropped = why
        return true
    }

    /// The evidence, while it is fresh.
    private func liveAnchor(_ now: Now) -> (gps: Date, monotonic: Double)? {
        guard let anchor, now.monotonic - anchor.monotonic <= Self.evidenceLifetime else { return nil }
        return anchor
    }

    /// When the evidence ages out, on the system clock: a moment worth a wake-up, since time locks may then
    /// follow the system clock again.
    package func evidenceExpiry(_ now: Now) -> Date? {
        liveAnchor(now).map { now.wall.addingTimeInterval($0.monotonic + Self.evidenceLifetime - now.monotonic) }
    }

    /// GPS time now, while trusted evidence is fresh.
    package func gpsTime(_ now: Now) -> Date? {
        liveAnchor(now).map { $0.gps.addingTimeInterval(now.monotonic - $0.monotonic) }
    }

    /// Whether GPS time from a `hardware` receiver is fresh: such time decides, and `,gps` time locks need it.
    package func hasHardwareTime(_ now: Now) -> Bool {
        evidenceLevel == .hardware && liveAnchor(now) != nil
    }

    /// The time time locks compare against.
    package func trustedTime(_ now: Now) -> Date {
        guard let gpsNow = gpsTime(now) else { return now.wall }
        if evidenceLevel == .hardware { return gpsNow }
        return now.wall.timeIntervalSince(gpsNow) > Self.tolerance ? gpsNow : now.wall
    }

    /// How far the system clock is ahead of trusted time right now (0 when it is trusted).
    package func correction(_ now: Now) -> Double { now.wall.timeIntervalSince(trustedTime(now)) }

    /// Which clock decides time locks now, and why, as `status` says it.
    package func decision(_ now: Now) -> (clock: String, why: String) {
        if rolloverSuspected && liveAnchor(now) == nil {
            return ("system", "GPS time is a whole number of 1024-week periods behind: a receiver bug, not trusted")
        }
        guard let gpsNow = gpsTime(now) else {
            if anchor != nil { return ("system", "no GPS time for over \(Int(Self.evidenceLifetime)) s") }
            return ("system", dropped ?? "no confirmed GPS time yet")
        }
        if evidenceLevel == .hardware { return ("gps", "a hardware receiver gives trusted GPS time") }
        let ahead = now.wall.timeIntervalSince(gpsNow)
        return ahead > Self.tolerance
            ? ("gps", "the system clock is \(Wording.offset(ahead)) of GPS time")
            : ("system", "it agrees with GPS time from a \(evidenceLevel?.rawValue ?? "unverified") source")
    }

    package static func == (a: ClockGuard, b: ClockGuard) -> Bool {
        a.offset == b.offset && a.consecutive == b.consecutive && a.rolloverSuspected == b.rolloverSuspected
            && a.evidenceLevel == b.evidenceLevel
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(offset) }
}
