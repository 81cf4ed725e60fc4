import struct FoundationEssentials.Date

/// The hunt's start and end (docs/HUNTS.md "The hunt's start and end"): in the hunt file (`starts`, `ends`) and in
/// the organiser's signed `schedule` message, which replaces the file's. Either may be absent: no start means the
/// hunt is on from the beginning, no end that it never ends. With a `limit`, each team has a clock of its own
/// (docs/HUNTS.md "A clock for each team"): it starts at the team's own start (`teams`, set by `chest hunt start
/// --team`, else `starts`) and runs for at most `limit` seconds, never past `ends`. The board and the engine ask it
/// the same questions; a team's chestd asks them of `forTeam(_:)`, the window of its own team.
package struct HuntSchedule: Codable, Hashable, Sendable {
    package var starts: Date?
    package var ends: Date?
    /// How long each team plays from its own start, in whole seconds; nil: until `ends`.
    package var limit: Int?
    /// The teams started by hand (`chest hunt start --team`), each at its own start; the others start at `starts`.
    package var teams: [String: Date]?

    package init(starts: Date? = nil, ends: Date? = nil, limit: Int? = nil, teams: [String: Date]? = nil) {
        self.starts = starts
        self.ends = ends
        self.limit = limit
        self.teams = teams?.isEmpty == true ? nil : teams
    }

    /// The longest limit: a week, longer than any event.
    package static let limitRange = 1...(7 * 86_400)

    /// Whether neither a start nor an end is set: the hunt is always on.
    package var isEmpty: Bool { starts == nil && ends == nil && limit == nil && teams == nil }

    /// The window of one team: its own start, and its end, the sooner of the hunt's end and its limit. Its
    /// `teams` is empty, so asking it again changes nothing.
    package func forTeam(_ team: String?) -> HuntSchedule {
        HuntSchedule(starts: team.flatMap { teams?[$0] } ?? starts, ends: ends, limit: limit)
    }

    /// When the team of this window stops playing: its start plus its limit, or the hunt's end if that comes
    /// first; nil when neither is set. For the whole hunt's schedule, the end of a team started at `starts`.
    package var closes: Date? {
        guard let limit, let starts else { return ends }
        let limited = starts.addingTimeInterval(Double(limit))
        return ends.map { min($0, limited) } ?? limited
    }

    /// Whether the limit, not the hunt's end, closes this window.
    package var closesByLimit: Bool {
        guard let limit, let starts else { return false }
        return ends.map { starts.addingTimeInterval(Double(limit)) < $0 } ?? true
    }

    /// Whether the hunt is on at `time`: at or after the start, before the end.
    package func isOpen(at time: Date) -> Bool { hasStarted(at: time) && !hasEnded(at: time) }

    package func hasStarted(at time: Date) -> Bool { starts.map { time >= $0 } ?? true }

    package func hasEnded(at time: Date) -> Bool { closes.map { time >= $0 } ?? false }

    /// Whether the board credits something it received at `receivedAt` (its own clock): only while the hunt is on.
    package func admitsCredit(receivedAt: Date) -> Bool { outside(receivedAt: receivedAt) == nil }

    /// Why the board credits and charges nothing it received at `receivedAt` (its own clock): a receipt or a hint
    /// request heard before the start, after the end, or after the team's own limit; nil while the hunt is on. Before
    /// the start nothing of the hunt may be opened or proven, so a receipt then was made from an offline search or a
    /// clock set forward (docs/HUNTS.md "The hunt's start and end").
    package func outside(receivedAt: Date) -> HuntGate.Refusal? {
        if !hasStarted(at: receivedAt) { return .beforeStart }
        guard hasEnded(at: receivedAt) else { return nil }
        return closesByLimit ? .afterLimit : .afterEnd
    }

    /// What `chest nav` and `status` say of the window at `time`: "the hunt starts in 12 min" before the start,
    /// "the hunt ends in 5 min" in its last hour, "the hunt is over" after the end; with a limit, always the time
    /// left ("52 min left"), and "your time is up" after it; nil otherwise.
    package func countdown(at time: Date) -> String? {
        if let starts, time < starts { return "the hunt starts in " + Self.duration(starts.timeIntervalSince(time)) }
        guard let closes else { return nil }
        if time >= closes { return closesByLimit ? "your time is up" : "the hunt is over" }
        let left = closes.timeIntervalSince(time)
        if limit != nil { return Self.duration(left) + " left" }
        return left <= 3600 ? "the hunt ends in " + Self.duration(left) : nil
    }

    /// "30 s", "12 min", "3 h 2 min": whole minutes rounded up, so "in 1 min" never means it already began.
    package static func duration(_ seconds: Double) -> String {
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
        if let limit, !Self.limitRange.contains(limit) {
            return "a team's time limit must be 1 s to 7 days, not \(limit) s"
        }
        if limit != nil, starts == nil {
            return
                "a time limit needs a start: teams not started by hand (chest hunt start --team) start at --starts TIME"
        }
        for (team, start) in teams ?? [:] {
            guard HuntTeam.isValidName(team) else { return "\(TerminalText.escaped(team)) is not a team's name" }
            if let ends, start >= ends {
                return "team \(team) cannot start at \(ISO8601.string(start)), after the hunt ends"
            }
        }
        return nil
    }
}
