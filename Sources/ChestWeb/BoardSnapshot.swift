import ChestCore
import struct FoundationEssentials.Date

/// What the board in a browser shows, taken from `chest board`'s verified state at one instant: an immutable value
/// the board's loop publishes and the server's threads only read (docs/ARCHITECTURE.md "The board in a browser").
public struct BoardSnapshot: Sendable {
    /// An event the board heard, with when it heard it.
    public struct Logged: Sendable {
        public var at: Date
        public var event: BoardEvent

        public init(at: Date, event: BoardEvent) {
            self.at = at
            self.event = event
        }
    }

    /// A visible target of the hunt, with the message and page it opens and the organiser's name for it.
    public struct Target: Sendable {
        public var title: String
        public var page: Int
        public var center: Coordinate
        public var radius: Double
        public var label: String?

        public init(title: String, page: Int, center: Coordinate, radius: Double, label: String? = nil) {
            self.title = title
            self.page = page
            self.center = center
            self.radius = radius
            self.label = label
        }
    }

    public var huntName: String
    public var broker: BrokerURL
    /// The board's link to the broker.
    public var connection: BrokerState
    public var board: HuntBoard
    /// Whether the hunt's receipts carry positions; only then are trails drawn.
    public var sharePositions: Bool
    public var targets: [Target]
    /// The latest credited pages and refusals, newest last.
    public var unlocks: [Logged]
    public var refusals: [Logged]
    /// The gate's refusals by reason (`HuntGate.refused`), counted whether or not a team's topic carried them.
    public var ignored: [String: Int]
    /// The colours the organiser chose for teams (`hunt team add --colour`), by team.
    public var chosenColours: [String: String]
    /// The hunt's start and end in force (docs/HUNTS.md "The hunt's start and end"): once it ended, the page shows
    /// the final ranking and a browser switches to the results.
    public var schedule = HuntSchedule()
    /// The organiser's words to every team (`chest hunt say`), oldest first.
    public var words: [HuntWord.Said] = []
    /// The organiser's tile source for a map beneath the board's (`--tiles`), or nil for the board's drawing alone.
    public var tiles: BoardTiles?
    /// Each page's question by `PageLink`, from the organiser's file: shown with the page's openings.
    public var questions: [PageLink: String] = [:]

    public init(huntName: String, broker: BrokerURL, connection: BrokerState, board: HuntBoard, sharePositions: Bool,
                targets: [Target], unlocks: [Logged], refusals: [Logged], ignored: [String: Int],
                chosenColours: [String: String] = [:]) {
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
    public static func targets(of hunt: HuntFile) -> [Target] {
        HuntMessage.targets(of: hunt.messages).map {
            Target(title: $0.title, page: $0.page, center: $0.target.center, radius: $0.target.radius, label: $0.target.label)
        }
    }
}
