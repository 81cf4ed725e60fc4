import ChestCore
import FoundationEssentials

/// The receiver's state at a glance, the first thing nav shows: "3D FIX", "NO FIX", "RECEIVER LOST", "GPSD GONE",
/// with why and the fix's detail. It never shows a fix as current once chestd says it is not (or, from a chestd
/// that does not say, once it is older than a fix lives).
struct NavReceiver: Equatable {
    enum Level: Equatable {
        /// A fix that opens locks.
        case fix
        /// No fix, but everything is connected: wait, or go outside.
        case waiting
        /// Something is gone: the receiver, gpsd or chestd.
        case lost
    }

    var level: Level
    var headline: String
    /// Why, when there is no fix: "no report from the receiver for 12 s".
    var reason: String?
    /// The fix's detail: satellites used/seen, eph/epv, trust, age once it passes 5 s.
    var details: [String]
    /// The details describe a fix that is no longer current (shown dimmed).
    var detailsAreOld: Bool

    /// The state from chestd's status; `problem` when chestd did not answer.
    static func assess(_ status: StatusReport?, problem: String?) -> NavReceiver {
        guard let status else {
            return NavReceiver(
                level: .lost, headline: "CHESTD NOT ANSWERING", reason: problem, details: [], detailsAreOld: true)
        }
        let state = status.fixState ?? derived(status)
        let fix = status.fix
        var details: [String] = []
        if let fix {
            if let used = fix.satellitesUsed {
                details.append(fix.satellitesSeen.map { "\(used)/\($0) satellites" } ?? "\(used) satellites")
            }
            if let eph = fix.eph { details.append("eph ±\(Int(eph.rounded())) m") }
            if let epv = fix.epv { details.append("epv ±\(Int(epv.rounded())) m") }
            if let trust = fix.trust { details.append("trust \(trust.level.rawValue)") }
            // A silent receiver's reason already says how long.
            if let age = fix.ageSeconds, age > Fix.maximumAge, state.cause != .silent {
                details.append("last report \(Int(age)) s ago")
            }
        }
        // The last position's age, when it says more than the last report's (reports without a position came after).
        if !state.hasFix, let age = state.lastPositionAgeSeconds, age > Fix.maximumAge,
            abs(age - (fix?.ageSeconds ?? 0)) >= 1
        {
            details.append("last position \(Int(age)) s ago")
        }
        guard !state.hasFix, let cause = state.cause else {
            let mode = fix?.mode ?? .notSeen
            return NavReceiver(
                level: .fix, headline: mode.description.uppercased(), reason: nil, details: details,
                detailsAreOld: false)
        }
        let reason =
            cause == .gpsd
            ? "gpsd at \(status.gpsd.server) is not connected" + (status.gpsd.reason.map { ": " + $0 } ?? "")
            : state.reason
        switch cause {
        case .gpsd:
            return NavReceiver(
                level: .lost, headline: "GPSD GONE", reason: reason, details: details, detailsAreOld: true)
        case .receiver, .silent:
            return NavReceiver(
                level: .lost, headline: "RECEIVER LOST", reason: reason, details: details, detailsAreOld: true)
        case .waiting, .noFix:
            return NavReceiver(
                level: .waiting, headline: "NO FIX", reason: reason, details: details, detailsAreOld: true)
        }
    }

    /// What a chestd that does not report `fixState` would have said, from the link and the fix's age.
    private static func derived(_ status: StatusReport) -> FixState {
        let fix = status.fix
        let cause: FixState.Cause?
        if !status.gpsd.connected {
            cause = .gpsd
        } else if let fix {
            cause = (fix.ageSeconds ?? 0) > Fix.maximumAge ? .silent : fix.mode.hasPosition ? nil : .noFix
        } else {
            cause = .waiting
        }
        return FixState(
            hasFix: cause == nil, cause: cause, reason: cause?.sentence(reportAge: fix?.ageSeconds),
            lastPositionAgeSeconds: nil)
    }
}
