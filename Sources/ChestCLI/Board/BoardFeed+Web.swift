import ChestCore
import ChestWeb

extension BoardFeed {
    /// The board as it is now, for the page in a browser: the same verified state the terminal shows; `tiles`,
    /// the organiser's map beneath (`--tiles`).
    func snapshot(connection: BrokerState, tiles: BoardTiles? = nil, columns: [BoardColumn]? = nil) -> BoardSnapshot {
        var snapshot = BoardSnapshot(
            huntName: hunt.name, broker: hunt.broker, connection: connection, board: board,
            sharePositions: hunt.sharePositions, targets: BoardSnapshot.targets(of: hunt),
            unlocks: core.latest.map { BoardSnapshot.Logged(at: $0.at, event: $0.event) },
            refusals: core.refusals.map { BoardSnapshot.Logged(at: $0.at, event: $0.event) },
            ignored: Dictionary(uniqueKeysWithValues: gate.refused.map { ($0.key.rawValue, $0.value) }),
            chosenColours: Dictionary(hunt.teams.compactMap { team in team.colour.map { (team.name.rawValue, $0) } }) {
                a, _ in a
            })
        snapshot.schedule = core.schedule
        snapshot.words = core.words.map(\.said)
        snapshot.asked = core.questions
        snapshot.submissions = core.submissions
        snapshot.photos = Self.photosPath(huntPath: huntPath)
        snapshot.questions = questions
        snapshot.tiles = tiles
        snapshot.columns = columns
        return snapshot
    }
}
