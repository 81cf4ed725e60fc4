/// When the board hands the browsers a new snapshot (docs/HUNTS.md "The board in a browser"): when something they
/// show changed (an event, the broker's state, a word, the schedule, the counts of refusals), and above 500 teams at
/// most every 0.2 ms a team (5,000 teams: once a second), every event still in order (docs/BENCHMARKS.md "A city").
/// A snapshot shares the board's per-team state until the next message changes it, which then copies all of it, and
/// each one is rendered for the streams: per message, that is a cost in the number of teams.
package struct BoardPublication: Sendable {
    /// What the browsers were last shown of what is not an event.
    package struct Shown: Hashable, Sendable {
        package var connection: BrokerState
        /// The last organiser's word's id.
        package var word: UInt64?
        /// A new schedule is no board event, yet the page's countdown and its turn to the final ranking follow it
        /// (docs/HUNTS.md "The hunt's start and end").
        package var schedule: HuntSchedule
        /// Refusals counted unread (a flood beyond its rate, a full queue) are shown once a minute as events, and
        /// counted meanwhile: the page's counts follow them (docs/HUNTS.md "A team that floods").
        package var ignored: [HuntGate.Refusal: Int]

        package init(
            connection: BrokerState, word: UInt64?, schedule: HuntSchedule, ignored: [HuntGate.Refusal: Int]
        ) {
            self.connection = connection
            self.word = word
            self.schedule = schedule
            self.ignored = ignored
        }
    }

    /// Seconds between two snapshots at least, unless the broker's state changed.
    package let interval: Double
    private var shown: Shown?
    private var pending: [BoardEvent] = []
    private var lastPublished = -Double.infinity

    /// For a hunt of `teams` teams.
    package init(teams: Int) {
        interval = teams <= 500 ? 0 : Double(teams) * 0.000_2
    }

    /// Takes the events of one turn of the loop and what the board shows now, at `instant` (monotonic seconds):
    /// the events to send with a new snapshot now, or nil when the browsers need none yet (the events wait).
    package mutating func take(_ events: [BoardEvent], showing now: Shown, at instant: Double) -> [BoardEvent]? {
        pending += events
        guard !pending.isEmpty || now != shown else { return nil }
        guard now.connection != shown?.connection || instant - lastPublished >= interval else { return nil }
        shown = now
        lastPublished = instant
        defer { pending = [] }
        return pending
    }
}
