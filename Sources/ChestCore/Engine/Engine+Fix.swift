import struct FoundationEssentials.Date

/// Consecutive qualified fixes that satisfied one location or altitude lock.
struct Streak: Hashable, Sendable {
    var count: Int
    /// The fix epoch last counted: gpsd sends several reports per epoch, and an epoch counts once.
    var epoch: Double
    var receivedAt: Double
}

extension Engine {
    mutating func handleFix(_ fix: Fix, now: Now) -> [Effect] {
        lastFix = fix
        var effects = assessTrust(fix)
        if clock.observe(fix, now: now, level: trust.level) { effects += clockChanged(now) }
        let epoch = fix.epoch
        if epoch != lastEmittedEpoch {
            lastEmittedEpoch = epoch
            effects.append(.emit(.fix(FixSummary(fix))))
        }
        // The gap before this epoch is judged against the cadence measured before it, so that no gap vouches for
        // itself.
        let gap = cadence.maximumGap
        cadence.observe(epoch: epoch, at: fix.receivedAt)
        effects += reported(fix, now: now)
        guard fix.isFresh(at: now.monotonic) else { return effects }
        countWalked(fix, now: now)
        var held: [LockRef] = []

        // Location: the circles around this position, with the accuracy each one demands.
        var inside: Set<LockRef> = []
        if let position = fix.position {
            for (circle, _) in locations.containing(position)
            where LockRule.location(position, eph: fix.eph, center: circle.center, radius: circle.radius) == nil
                && fixCounts(for: circle.key)
            {
                inside.insert(circle.key)
                if advance(circle.key, fix: fix, gap: gap) >= Self.confirmations { held.append(circle.key) }
            }
        }
        effects += sealedFix(fix, now: now)
        // Any other streak of a location lock is broken: outside, too inaccurate, or no fix at all.
        for ref in streaks.keys where ref.key.kind == .location && !inside.contains(ref) {
            streaks.removeValue(forKey: ref)
        }

        // Altitude: a 3D fix with altMSL is evidence either way. A report or a whole epoch without altitude says
        // nothing either way, as an unusable eph says nothing of a place: gpsd's first TPV of an epoch is often 2D
        // (RMC before GGA), and some receivers (a marine unit) send altitude in only some epochs. While such epochs
        // keep coming the receiver is alive, so they keep a streak from ageing; only losing the fix breaks it
        // (docs/DESIGN.md "Lock rules": 3 consecutive 3D fixes).
        if let altitude = fix.altitude3D {
            for (ref, bounds) in altitudes {
                if LockRule.altitude(altitude, epv: fix.epv, bounds: bounds) == nil && fixCounts(for: ref) {
                    if advance(ref, fix: fix, gap: gap) >= Self.confirmations { held.append(ref) }
                } else {
                    streaks.removeValue(forKey: ref)
                }
            }
        } else if fix.position == nil {
            for ref in streaks.keys where ref.key.kind == .altitude { streaks.removeValue(forKey: ref) }
        } else {
            for ref in streaks.keys where ref.key.kind == .altitude { streaks[ref]?.receivedAt = fix.receivedAt }
        }
        // The reader may have walked into the place a reading speaks for.
        if !held.isEmpty { effects += latch(held, now: now) }
        if !weathers.isEmpty { effects += latchWeather(now) + planWeather(now) }
        return effects
    }

    /// Counts this fix towards a lock's streak and returns the new count. A second report of the same epoch
    /// counts nothing; a gap longer than `gap` (twice the receiver's cadence, 5 to 15 s: `ReceiverCadence`)
    /// starts the streak again.
    mutating func advance(_ ref: LockRef, fix: Fix, gap: Double) -> Int {
        let epoch = fix.epoch
        if var streak = streaks[ref] {
            guard streak.epoch != epoch else { return streak.count }
            streak.count = fix.receivedAt - streak.receivedAt > gap ? 1 : streak.count + 1
            streak.epoch = epoch
            streak.receivedAt = fix.receivedAt
            streaks[ref] = streak
            return streak.count
        }
        streaks[ref] = Streak(count: 1, epoch: epoch, receivedAt: fix.receivedAt)
        return 1
    }

    /// How many confirming fixes a lock has so far.
    package func confirmations(of ref: LockRef) -> Int { streaks[ref]?.count ?? 0 }
}

extension Fix {
    /// Identifies the receiver's epoch: its own time when it gave one, else the second it arrived in.
    var epoch: Double {
        time.map(\.timeIntervalSince1970) ?? -receivedAt.rounded(.down)
    }
}
