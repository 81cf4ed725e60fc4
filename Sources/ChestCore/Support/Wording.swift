import FoundationEssentials

/// How explanations write durations and distances, everywhere alike.
package enum Wording {
    /// "90 s", "47 min", "3 h 5 min", "2 days".
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(abs(seconds).rounded(.down))
        switch whole {
        case ..<120: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<(48 * 3600):
            let minutes = whole % 3600 / 60
            return minutes == 0 ? "\(whole / 3600) h" : "\(whole / 3600) h \(minutes) min"
        default: return "\(whole / 86400) days"
        }
    }

    /// How far the system clock is off GPS time: "0.2 s ahead", "3 min behind", "174 days ahead".
    package static func offset(_ seconds: Double) -> String {
        let size = abs(seconds) < 10 ? String(printf: "%.1f s", abs(seconds)) : duration(seconds)
        return size + (seconds < 0 ? " behind" : " ahead")
    }

    /// When a place was reached, beside when its page opened: "11:02:03", or "11:02:03, 14 s before it opened" when
    /// the place's key came late (docs/DESIGN.md "Late keys").
    package static func reached(_ reached: Date, before opened: Date, in zone: Zone) -> String {
        let late = opened.timeIntervalSince(reached)
        return LockReason.clock(reached, zone) + (late >= 1 ? ", \(duration(late)) before it opened" : "")
    }

    /// "850 m", "7.2 km", "42 km".
    package static func distance(_ metres: Double) -> String {
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        let km = metres / 1000
        return km < 10 ? "\((km * 10).rounded() / 10) km" : "\(Int(km.rounded())) km"
    }
}
