import FoundationEssentials
import Glibc

/// The engine's working memory for format 2 pages (docs/DESIGN.md "Sealed pages"): which cell each sealed
/// location lock is in, which key derivations are under way, the contents opened but not yet shown, PIN attempts
/// in flight and the ledger of wrong attempts that outlives a message.
struct SealBook: Sendable {
    /// A sealed location lock watched for the cells it is in.
    struct Watch: Sendable {
        /// Where one qualified fix put the reader on the lock's grid.
        struct Point: Sendable {
            var sequence: Int
            var cell: Cell
        }

        var grid: CellGrid
        /// The latest fix's point, nil when it did not qualify.
        var latest: Point?
        /// R·cos φ0 and λ0 in radians, kept so that a fix costs a lock no trigonometry.
        let xScale: Double
        let referenceLongitude: Double
        /// The message asks for fixes from a hardware receiver: kept here so a fix costs a lock no lookup.
        let requiresHardware: Bool
        /// Whose turn its cells take in the queue (`CellQueue`): the sender's key, kept so a fix costs no encoding.
        let owner: String

        /// Format 3: the search area's centre on the grid and the square of how far from it a cell can still hold
        /// the place; a reader farther away derives nothing (infinite for format 2).
        let areaX: Double
        let areaY: Double
        let reachSquared: Double
        /// How wide a place is, in metres: a cell, or block − 1 of the finer cells of formats 4 and 5 (`CellGrid.keyBlock`).
        let placeWidth: Double

        init(_ grid: CellGrid, requiresHardware: Bool = false, owner: String = "", block: Int = 2) {
            self.grid = grid
            self.requiresHardware = requiresHardware
            self.owner = owner
            placeWidth = grid.width * Double(max(1, block - 1))
            xScale = Coordinate.earthRadius * grid.cosReference
            referenceLongitude = Double(grid.referenceLongitude) * .pi / 180
            if let area = grid.area {
                (areaX, areaY) = grid.project(area.center)
                // The projection stretches east-west distances by at most cos φ0 / cos of the area's farthest latitude.
                let farthest = min(abs(area.latitude) + area.radius / Coordinate.earthRadius * 180 / .pi, 89.9)
                let reach = (area.radius + grid.width) * max(1, grid.cosReference / cos(farthest * .pi / 180)) * 1.01
                reachSquared = reach * reach
            } else {
                (areaX, areaY, reachSquared) = (0, 0, .infinity)
            }
        }

        /// `grid.cell(of:)` for a position already in radians, with y = R·φ shared by every lock, and where on the
        /// grid it is; nil outside the search area, where the place cannot be.
        func point(longitude λ: Double, y: Double, sequence: Int) -> Point? {
            var Δλ = λ - referenceLongitude
            if Δλ > .pi { Δλ -= 2 * .pi } else if Δλ <= -.pi { Δλ += 2 * .pi }
            let x = xScale * Δλ
            if reachSquared < .infinity {
                let Δx = x - areaX
                let Δy = y - areaY
                guard Δx * Δx + Δy * Δy <= reachSquared else { return nil }
            }
            let cell = Cell(
                x: Int64(((x - grid.offsetX) / grid.width).rounded(.down)),
                y: Int64(((y - grid.offsetY) / grid.width).rounded(.down)))
            return Point(sequence: sequence, cell: cell)
        }

        /// Whether a fix says where in the place's key block the reader is: one less accurate than half a place's width
        /// does not, and one of a trust the organiser did not ask for says nothing at all (docs/SECURITY.md "Hardware trust and time").
        func counts(eph: Double?, hardware: Bool) -> Bool {
            eph.map { $0 <= placeWidth / 2 } ?? true && (hardware || !requiresHardware)
        }
    }

    /// A PIN or answer attempt: counted, then compared once the count is durable.
    struct Attempt: Sendable {
        var guess: Guess
        var client: ClientID
        /// Format 1 hashes to compare, or format 2 slots to try.
        var hashes: [LockKey: String]
        var slots: [SlotRef]
        var recorded = false
        var outstanding: Set<SlotRef> = []
        var matching: [LockKey] = []
    }

    var watches: [LockRef: Watch] = [:]
    /// PIN, release and guard derivations under way; cells wait in `cells`.
    var pending: Set<SlotRef> = []
    /// Cells waiting for their key, and the one with the worker.
    var cells = CellQueue()
    /// The recent fixes a late key is judged on.
    var history = FixHistory()
    /// The fixes that reached a sealed place whose key came late, as they arrived, until its page opens: the
    /// unlock's evidence.
    var reached: [LockRef: [FixHistory.Entry]] = [:]
    /// Opened, not yet shown: memory only, so nothing of a page reaches the disk before it opens.
    var contents: [MessageID: [Int: SealedContent]] = [:]
    var ledger: [MessageID: PINAttempts] = [:]
    var attempts: [MessageID: Attempt] = [:]
    /// Derivations asked for since start.
    var derivations = 0
    /// The release keys the hunt's organiser published, by name.
    var releases: [String: ReleaseKey] = [:]
}

/// One key slot: a page's lock set.
package struct SlotRef: Hashable, Sendable {
    package var id: MessageID
    package var page: Int
    package var set: LockSetName

    package init(id: MessageID, page: Int, set: LockSetName) {
        self.id = id
        self.page = page
        self.set = set
    }
}
