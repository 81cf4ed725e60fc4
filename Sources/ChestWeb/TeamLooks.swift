import ChestCore

/// The teams' colours (`TeamColours.assign`) and the names that imitate another's (`KnownSenders.lookalikes`): both
/// depend only on the teams' names and the colours the organiser chose, so the server makes them once for those
/// rather than for every rendering (thousands of names' skeletons each time at a city's scale).
struct TeamLooks: Sendable {
    let names: [String]
    let chosen: [String: String]
    let colours: [String: String]
    let lookalikes: [String: String]

    init(_ snapshot: BoardSnapshot) {
        names = snapshot.board.teamNames
        chosen = snapshot.chosenColours
        colours = TeamColours.assign(teams: names, chosen: chosen)
        lookalikes = KnownSenders.lookalikes(among: names)
    }

    /// Whether these are the looks of `snapshot`'s teams.
    func fits(_ snapshot: BoardSnapshot) -> Bool {
        chosen == snapshot.chosenColours && names == snapshot.board.teamNames
    }
}
