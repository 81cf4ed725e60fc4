import ChestCore

import struct FoundationEssentials.Date

/// What the board in a browser shows, taken from `chest board`'s verified state at one instant: an immutable value
/// the board's loop publishes and the server's threads only read (docs/ARCHITECTURE.md "The board in a browser").
package struct BoardSnapshot: Sendable {
    /// An event the board heard, with when it heard it.
    package struct Logged: Sendable {
        package var at: Date
        package var event: BoardEvent

        package init(at: Date, event: BoardEvent) {
            self.at = at
            self.event = event
        }
    }

    /// A visible target of the hunt, with the message and page it opens and the organiser's name for it.
    package struct Target: Sendable {
        package var title: String
        package var page: Int
        package var center: Coordinate
        package var radius: Double
        package var label: String?

        package init(title: String, page: Int, center: Coordinate, radius: Double, label: String? = nil) {
            self.title = title
            self.page = page
            self.center = center
            self.radius = radius
            self.label = label
        }
    }

    package var huntName: String
    package var broker: BrokerURL
    /// The board's link to the broker.
    package var connection: BrokerState
    package var board: HuntBoard
    /// Whether the hunt's receipts carry positions; only then are trails drawn.
    package var sharePositions: Bool
    package var targets: [Target]
    /// The latest credited pages and refusals, newest last.
    package var unlocks: [Logged]
    package var refusals: [Logged]
    /// The gate's refusals by reason (`HuntGate.refused`), counted whether or not a team's topic carried them.
    package var ignored: [String: Int]
    /// The colours the organiser chose for teams (`hunt team add --colour`), by team.
    package var chosenColours: [String: String]
    /// The hunt's start and end in force (docs/HUNTS.md "The hunt's start and end"): once it ended, the page shows
    /// the final ranking and a browser switches to the results.
    package var schedule = HuntSchedule()
    /// The organiser's words to every team (`chest hunt say`), oldest first.
    package var words: [HuntWord.Said] = []
    /// The teams' questions (`chest hunt ask`), oldest first.
    package var asked: [BoardCore.HeardQuestion] = []
    /// The teams' submissions for mission pages, waiting and judged, in the order the board heard them, and the folder
    /// of their photos beside the journal (docs/HUNTS.md "Missions"); nil when the board keeps none.
    package var submissions: [BoardCore.HeardSubmission] = []
    package var photos: String?
    /// The organiser's tile source for a map beneath the board's (`--tiles`), or nil for the board's drawing alone.
    package var tiles: BoardTiles?
    /// Each page's question by `PageLink`, from the organiser's file: shown with the page's openings.
    package var questions: [PageLink: String] = [:]
    /// The leaderboard's columns (`--columns`, docs/HUNTS.md "Columns"); nil for the board's own.
    package var columns: [BoardColumn]?

    package init(
        huntName: String, broker: BrokerURL, connection: BrokerState, board: HuntBoard, sharePositions: Bool,
        targets: [Target], unlocks: [Logged], refusals: [Logged], ignored: [String: Int],
        chosenColours: [String: String] = [:]
    ) {
        self.chosenColours = chosenColours
        self.huntName = huntName
        self.broker = broker
        self.connection = connection
        self.board = board
        self.sharePositions = sharePositions
        self.targets = targets
        self.unlocks = unlocks
        self.refusals = refusals
        self.ignored = ignored
    }

    /// The targets of a hunt file's messages.
    package static func targets(of hunt: HuntFile) -> [Target] {
        HuntMessage.targets(of: hunt.messages).map {
            Target(
                title: $0.title, page: $0.page, center: $0.target.center, radius: $0.target.radius,
                label: $0.target.label)
        }
    }
}
