import struct FoundationEssentials.Date

/// The hunt's start and end (docs/HUNTS.md "The hunt's start and end"): in the hunt file (`starts`, `ends`) and in
/// the organiser's signed `schedule` message, which replaces the file's. Either may be absent: no start means the
/// hunt is on from the beginning, no end that it never ends. The board and the engine ask it the same questions.
package struct HuntSchedule: Codable, Hashable, Sendable {
    package var starts: Date?
    package var ends: Date?

    package init(starts: Date? = nil, ends: Date? = nil) {
        self.starts = starts
        self.ends = ends
    }

    /// Whether neither a start nor an end is set: the hunt is always on.
    package var isEmpty: Bool { starts == nil && ends == nil }

    /// Whether the hunt is on at `time`: at or after the start, before the end.
    package func isOpen(at time: Date) -> Bool { hasStarted(at: time) && !hasEnded(at: time) }

    package func hasStarted(at time: Date) -> Bool { starts.map { time >= $0 } ?? true }

    package func hasEnded(at time: Date) -> Bool { ends.map { time >= $0 } ?? false }

    /// Whether the board credits something it received at `receivedAt` (its own clock): only while the hunt is on.
    package func admitsCredit(receivedAt: Date) -> Bool { outside(receivedAt: receivedAt) == nil }

    /// Why the board credits and charges nothing it received at `receivedAt` (its own clock): a receipt or a hint
    /// request heard before the start or after the end; nil while the hunt is on. Before the start nothing of the
    /// hunt may be opened or proven, so a receipt then was made from an offline search or a clock set forward
    /// (docs/HUNTS.md "The hunt's start and end").
    package func outside(receivedAt: Date) -> HuntGate.Refusal? {
        if !hasStarted(at: receivedAt) { return .beforeStart }
        return hasEnded(at: receivedAt) ? .afterEnd : nil
    }

    /// What `chest nav` and `status` say of the window at `time`: "the hunt starts in 12 min" before the start,
    /// "the hunt ends in 5 min" in its last hour, "the hunt is over" after the end; nil otherwise.
    package func countdown(at time: Date) -> String? {
        if let starts, time < starts { return "the hunt starts in " + Self.duration(starts.timeIntervalSince(time)) }
        guard let ends else { return nil }
        if time >= ends { return "the hunt is over" }
        let left = ends.timeIntervalSince(time)
        return left <= 3600 ? "the hunt ends in " + Self.duration(left) : nil
    }

    /// "30 s", "12 min", "3 h 2 min": whole minutes rounded up, so "in 1 min" never means it already began.
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return "\(Int(seconds.rounded(.up))) s" }
        let minutes = Int((seconds / 60).rounded(.up))
        guard minutes >= 60 else { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// Why the schedule is not one, in a sentence; nil when it is fine.
    package var problem: String? {
        if let starts, let ends, ends <= starts {
            return
                "the hunt must end after it starts (it starts \(ISO8601.string(starts)), ends \(ISO8601.string(ends)))"
        }
        return nil
    }
}
