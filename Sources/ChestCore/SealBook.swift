/// The engine's working memory for format 2 pages (docs/DESIGN.md "Sealed pages"): which cell each sealed
/// location lock is in, which key derivations are under way, the contents opened but not yet shown, PIN attempts
/// in flight and the ledger of wrong attempts that outlives a message.
struct SealBook: Sendable {
    /// A sealed location lock watched for the cell it is in.
    struct Watch: Sendable {
        var grid: CellGrid
        var current: Cell?
        var count = 0
        var epoch = Double.nan
        var receivedAt = 0.0
        /// R·cos φ0 and λ0 in radians, kept so that a fix costs a lock no trigonometry.
        let xScale: Double
        let referenceLongitude: Double
        /// The message asks for fixes from a hardware receiver: kept here so a fix costs a lock no lookup.
        let requiresHardware: Bool

        init(_ grid: CellGrid, requiresHardware: Bool = false) {
            self.grid = grid
            self.requiresHardware = requiresHardware
            xScale = Coordinate.earthRadius * grid.cosReference
            referenceLongitude = Double(grid.referenceLongitude) * .pi / 180
        }

        /// `grid.cell(of:)` for a position already in radians, with y = R·φ shared by every lock.
        func cell(longitude λ: Double, y: Double) -> Cell {
            var Δλ = λ - referenceLongitude
            if Δλ > .pi { Δλ -= 2 * .pi } else if Δλ <= -.pi { Δλ += 2 * .pi }
            return Cell(x: Int64(((xScale * Δλ - grid.offsetX) / grid.width).rounded(.down)),
                        y: Int64(((y - grid.offsetY) / grid.width).rounded(.down)))
        }
    }

    /// A PIN attempt: counted, then compared once the count is durable.
    struct Attempt: Sendable {
        var pin: String
        var client: ClientID
        /// Format 1 hashes to compare, or format 2 slots to try.
        var hashes: [LockKey: String]
        var slots: [SlotRef]
        var recorded = false
        var outstanding: Set<SlotRef> = []
        var matching: [LockKey] = []
    }

    var watches: [LockRef: Watch] = [:]
    var pending: Set<SlotRef> = []
    /// Opened, not yet shown: memory only, so nothing of a page reaches the disk before it opens.
    var contents: [MessageID: [Int: SealedContent]] = [:]
    var ledger: [MessageID: PINAttempts] = [:]
    var attempts: [MessageID: Attempt] = [:]
    /// The last few fresh fixes with a position, replayed against a point a cell key just revealed.
    var recentFixes: [Fix] = []
    /// Derivations asked for since start.
    var derivations = 0
    /// The release keys the hunt's organiser published, by name (base64).
    var releases: [String: String] = [:]
}

/// One key slot: a page's lock set.
public struct SlotRef: Hashable, Sendable {
    public var id: MessageID
    public var page: Int
    public var set: LockSetName

    public init(id: MessageID, page: Int, set: LockSetName) {
        self.id = id
        self.page = page
        self.set = set
    }
}
