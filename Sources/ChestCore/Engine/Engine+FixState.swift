/// What the engine keeps to tell whether it has a fix (`FixState`): whether gpsd lost its receiver, when the last
/// position came, what it last announced, and the check it aimed at the fix's end of life.
struct FixWatch: Hashable, Sendable {
    var receiverGone = false
    /// Monotonic seconds.
    var lastPositionAt: Double?
    /// Whether `fixFound` was the last of the two events told.
    var announced = false
    /// The monotonic instant of the `.fixCheck` aimed and not reached yet.
    var checkAt: Double?
}

extension Engine {
    /// A margin past a fix's life, so that the check finds it stale rather than exactly at its limit.
    static let fixCheckMargin = 0.05

    /// Whether chestd has a usable fix now, and why not.
    package func fixState(now: Now) -> FixState {
        FixState.assess(
            gpsdConnected: gps.connected, receiverGone: fixWatch.receiverGone, lastReport: lastFix,
            lastPositionAt: fixWatch.lastPositionAt, monotonicNow: now.monotonic, life: cadence.maximumGap)
    }

    /// A report from gpsd (`lastFix` already holds it): a report means the receiver is there.
    mutating func reported(_ fix: Fix, now: Now) -> [Effect] {
        if fix.position != nil { fixWatch.lastPositionAt = fix.receivedAt }
        // gpsd's connection layer follows a receiver's departure with a mode-0 report: that one says nothing.
        if fix.mode != .notSeen { fixWatch.receiverGone = false }
        return reviewFixState(now)
    }

    /// A tick: the check aimed at the fix's end of life may be due. A timer that fired early is aimed again.
    mutating func fixChecked(_ now: Now) -> [Effect] {
        guard let at = fixWatch.checkAt else { return [] }
        guard now.monotonic >= at else { return [.fixCheck(at: at)] }
        fixWatch.checkAt = nil
        return reviewFixState(now)
    }

    /// Tells `fixFound` or `fixLost` when the state changed since the last told, and while there is a fix, aims
    /// one check at its end of life: fixes arriving meanwhile move nothing, so a 1 Hz feed costs a wake-up every
    /// 5 s, not one per fix.
    mutating func reviewFixState(_ now: Now) -> [Effect] {
        let state = fixState(now: now)
        var effects: [Effect] = []
        if state.hasFix != fixWatch.announced {
            fixWatch.announced = state.hasFix
            if state.hasFix, let fix = lastFix {
                effects.append(.emit(.fixFound(FixSummary(fix))))
            } else if let cause = state.cause {
                effects.append(.emit(.fixLost(cause, reason: state.reason ?? cause.sentence(reportAge: nil))))
            }
        }
        if state.hasFix, fixWatch.checkAt == nil, let fix = lastFix {
            let at = fix.receivedAt + cadence.maximumGap + Self.fixCheckMargin
            fixWatch.checkAt = at
            effects.append(.fixCheck(at: at))
        }
        return effects
    }
}
