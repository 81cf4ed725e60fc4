import struct FoundationEssentials.Date

extension Engine {
    /// gpsd named the device feeding it, or it went away (`nil`): the trust of every later fix depends on it.
    mutating func handleReceiver(_ source: FixSource?, now: Now) -> [Effect] {
        let before = trust.trust
        trust.receiver(source)
        cadence.reported = source?.cycle
        if source == nil { cadence.breakRun() }
        var effects: [Effect] = trust.trust == before ? [] : [.emit(.trust(trust.trust, source: source))]
        if source == nil, clock.forget("the GPS feed stopped") { effects += clockChanged(now) }
        fixWatch.receiverGone = source == nil
        return effects + reviewFixState(now)
    }

    /// GPS time from a hardware receiver, while there is some: what `,gps` time locks need.
    func hardwareTime(_ now: Now) -> Date? {
        clock.hasHardwareTime(now) ? clock.gpsTime(now) : nil
    }

    /// Whether this fix may count for the lock's message: any fix, unless it asks for hardware.
    func fixCounts(for ref: LockRef) -> Bool {
        trust.level == .hardware || entries[ref.id]?.message.requiresHardware != true
    }

    /// The clock guard's evidence changed: say so, and let time locks follow the clock that now decides.
    mutating func clockChanged(_ now: Now) -> [Effect] {
        let reason =
            clock.rolloverSuspected
            ? "GPS time is more than a year off the system clock: a receiver week-rollover bug, not trusted"
            : clock.offset.map { "the system clock is \(Wording.offset($0)) of GPS time" }
                ?? "GPS time no longer counts (\(clock.dropped ?? "no evidence")): the system clock decides"
        return [.emit(.clock(reason: reason))] + latch(dueTimeLocks(now), now: now) + rescheduleWake(now)
    }

    /// Judges a fix's trust (docs/SECURITY.md "Hardware trust and time"); a `trust` event when it changed.
    mutating func assessTrust(_ fix: Fix) -> [Effect] {
        guard trust.assess(fix) else { return [] }
        return [.emit(.trust(trust.trust, source: trust.source))]
    }
}
