/// Whether chestd has a fix it can use now, and if not, why: `fixState` in `chest status --json`, the headline of
/// `chest nav`, and what the `fixLost` and `fixFound` events announce (docs/DESIGN.md "The fix at a glance").
package struct FixState: Hashable, Sendable, Codable {
    /// Why there is no usable fix, from the farthest cause to the nearest.
    package enum Cause: String, Hashable, Sendable, Codable, CaseIterable {
        /// chestd is not connected to gpsd.
        case gpsd
        /// gpsd said its receiver went away (unplugged, or the feed's program ended).
        case receiver
        /// gpsd is connected but has sent no report yet.
        case waiting
        /// The last report is older than a fix lives: the feed froze, or the receiver stopped talking.
        case silent
        /// The receiver reports, without a position (mode 0 or 1): no sky in view yet.
        case noFix
    }

    /// True while the last report is a 2D or 3D fix young enough to open locks.
    package var hasFix: Bool
    @Null package var cause: Cause?
    /// The cause as a person reads it: "no report from the receiver for 7 s".
    @Null package var reason: String?
    /// Seconds since the last fix with a position, by chestd's monotonic clock; null when there was none since
    /// chestd started.
    @Null package var lastPositionAgeSeconds: Double?

    package init(hasFix: Bool, cause: Cause?, reason: String?, lastPositionAgeSeconds: Double?) {
        self.hasFix = hasFix
        self.cause = cause
        self.reason = reason
        self.lastPositionAgeSeconds = lastPositionAgeSeconds
    }

    /// The state from what chestd knows: the link to gpsd, whether gpsd lost its receiver, the last report and
    /// when the last position came. Pure, so the status, the events and nav cannot disagree. A report stays
    /// current for `life` seconds: 5 s, or twice a slow receiver's cadence (`ReceiverCadence.maximumGap`).
    package static func assess(
        gpsdConnected: Bool, receiverGone: Bool, lastReport: Fix?, lastPositionAt: Double?,
        monotonicNow: Double, life: Double = Fix.maximumAge
    ) -> FixState {
        let positionAge = lastPositionAt.map { max(0, monotonicNow - $0) }
        func lost(_ cause: Cause) -> FixState {
            FixState(
                hasFix: false, cause: cause, reason: cause.sentence(reportAge: lastReport?.age(at: monotonicNow)),
                lastPositionAgeSeconds: positionAge)
        }
        guard gpsdConnected else { return lost(.gpsd) }
        if receiverGone { return lost(.receiver) }
        guard let report = lastReport else { return lost(.waiting) }
        guard report.isFresh(at: monotonicNow, life: life) else { return lost(.silent) }
        guard report.position != nil else { return lost(.noFix) }
        return FixState(hasFix: true, cause: nil, reason: nil, lastPositionAgeSeconds: positionAge)
    }
}

extension FixState.Cause {
    /// "gpsd is not connected", "no report from the receiver for 7 s".
    package func sentence(reportAge: Double?) -> String {
        switch self {
        case .gpsd: "gpsd is not connected"
        case .receiver: "gpsd lost the receiver"
        case .waiting: "no report from gpsd yet"
        case .silent: "no report from the receiver for \(Int(reportAge ?? Fix.maximumAge)) s"
        case .noFix: "the receiver has no fix: it needs a view of the open sky"
        }
    }
}
