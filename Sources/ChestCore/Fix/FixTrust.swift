/// How far a fix can be believed to come from a real receiver under the open sky, with the reasons
/// (docs/SECURITY.md "Hardware trust and time").
package struct FixTrust: Hashable, Sendable, Codable {
    /// From most to least trusted.
    package enum Level: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
        /// A USB receiver, and nothing suspicious.
        case hardware
        /// A source chestd cannot place.
        case unverified
        /// A pty or network feed, or gpsd says simulated.
        case simulated
        /// The fixes themselves misbehave: a jump, time going backwards, a frozen or uniform sky…
        case suspect

        package static func < (a: Level, b: Level) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    package var level: Level
    /// Why the level is not better, most serious first; empty for `hardware`.
    package var reasons: [String]

    package init(level: Level, reasons: [String] = []) {
        self.level = level
        self.reasons = reasons
    }

    /// "simulated: the receiver is a pseudo-terminal (gpsfake?)", as `status` and the `trust` event say it.
    package var description: String {
        reasons.isEmpty ? level.rawValue : "\(level.rawValue): " + reasons.joined(separator: "; ")
    }
}
