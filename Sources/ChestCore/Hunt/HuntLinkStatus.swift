import struct FoundationEssentials.Date

/// The hunt this chestd plays in, as `chest status` shows it (docs/HUNTS.md "Joining a hunt"): the broker link,
/// the outbox, and what was ignored on the broker and why.
package struct HuntLinkStatus: Hashable, Sendable, Codable {
    package var name: String
    package var hunt: HuntID
    package var team: String
    package var broker: BrokerURL
    package var connected: Bool
    /// Why the link is down (refused, unreachable), while it is.
    @Null package var problem: String?
    /// Receipts, transitions and statuses written but not yet acknowledged by the broker.
    package var outbox: Int
    /// Messages from the broker that were not believed, by reason (`HuntGate.Refusal`'s raw values).
    package var ignored: [String: Int]
    /// The releases the organiser published, by name.
    package var releases: [String]
    /// When the hunt starts and ends (absent when not set): the join file's, or the organiser's newest signed
    /// schedule (docs/HUNTS.md "The hunt's start and end").
    package var starts: Date?
    package var ends: Date?
    /// The team's time limit in seconds, and when its own time runs out (its start plus the limit, or the hunt's
    /// end if sooner): absent without a limit (docs/HUNTS.md "A clock for each team").
    package var limit: Int?
    package var closes: Date?
    /// The organiser's latest words to the teams, oldest first (docs/HUNTS.md "Word to all teams").
    package var said: [HuntWord.Said]?

    /// The team's window as the engine has it.
    package var schedule: HuntSchedule { HuntSchedule(starts: starts, ends: ends, limit: limit) }

    package init(
        name: String, hunt: HuntID, team: String, broker: BrokerURL, connected: Bool, problem: String?,
        outbox: Int, ignored: [String: Int], releases: [String], schedule: HuntSchedule = HuntSchedule(),
        said: [HuntWord.Said] = []
    ) {
        self.name = name
        self.hunt = hunt
        self.team = team
        self.broker = broker
        self.connected = connected
        self.problem = problem
        self.outbox = outbox
        self.ignored = ignored
        self.releases = releases
        starts = schedule.starts
        ends = schedule.ends
        limit = schedule.limit
        closes = schedule.limit == nil ? nil : schedule.closes
        self.said = said.isEmpty ? nil : said
    }
}
