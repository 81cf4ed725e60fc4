import struct FoundationEssentials.Date

/// What a team's chest keeps of the organiser's word (`<chest>/hunt-word.json`, docs/HUNTS.md "The hunt's start and
/// end", "Word to all teams"): the newest signed schedule believed, so that a restart without a broker still knows
/// it and refuses an older one, and every `said` announced, so that one heard again (the broker keeps them
/// retained, and sends them on every connection) is not announced twice.
package struct HuntWord: Codable, Hashable, Sendable {
    /// A schedule the organiser signed, with its id (the organiser's clock in milliseconds).
    package struct Schedule: Codable, Hashable, Sendable {
        package var id: UInt64
        package var schedule: HuntSchedule

        package init(id: UInt64, schedule: HuntSchedule) {
            self.id = id
            self.schedule = schedule
        }
    }

    /// One word of the organiser's, as announced.
    package struct Said: Codable, Hashable, Sendable {
        package var id: UInt64
        package var text: String
        /// When the organiser sent it (their clock).
        package var at: Date
        /// The team it was told to alone (`chest hunt say --team`, docs/HUNTS.md "A team's question, a word to one
        /// team"); nil for a word to every team.
        package var team: String?

        package init(id: UInt64, text: String, at: Date, team: String? = nil) {
            self.id = id
            self.text = text
            self.at = at
            self.team = team
        }
    }

    /// The file's name in the chest directory.
    package static let fileName = "hunt-word.json"
    /// The most words kept; beyond it the oldest are forgotten (and would be announced again if the broker still
    /// held them: a hunt with that many is not one a person reads).
    package static let saidLimit = 1000

    /// The hunt's ID: another hunt's word is not this one's.
    package var hunt: HuntID
    package var schedule: Schedule?
    /// Oldest first.
    package var said: [Said]

    package init(hunt: HuntID, schedule: Schedule? = nil, said: [Said] = []) {
        self.hunt = hunt
        self.schedule = schedule
        self.said = said
    }
}
