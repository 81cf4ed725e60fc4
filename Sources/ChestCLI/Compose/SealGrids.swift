import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// The grids an organiser lays sealed places on (docs/FORMAT.md "Format 3"): one per declared search area and cell
/// width, with its random shift and Argon2id salt, kept in the config directory (`grids.json`) so that every message the
/// organiser composes in one area, in one run or many, shares it and a reader's chestd derives a cell's key once for
/// all of them. A place with no declared area gets a default one drawn afresh around it, on a grid it shares with the
/// organiser's other default places where that grid serves the area (`DefaultGrids`).
final class SealGrids {
    private struct Key: Hashable, Codable {
        var area: SearchArea
        var width: Double
    }

    private struct Kept: Codable {
        var key: Key
        var offsetX: Double
        var offsetY: Double
        var referenceLatitude: Int
        var referenceLongitude: Int
        var salt: String
        var isDefault: Bool
    }

    private var grids: [Key: (grid: CellGrid, salt: [UInt8])] = [:]
    private var defaults = DefaultGrids()
    private var kept: [Kept] = []
    /// The salts of the grids read from `path`: laid by earlier messages.
    private var earlier: Set<[UInt8]> = []
    private var random = SystemRandomNumberGenerator()
    private let path: String?

    private var loaded = false

    /// The grids kept at `path` (nil: this run's only), read when a place first needs one.
    init(keptAt path: String? = nil) {
        self.path = path
    }

    /// Reads the kept grids once. A file that cannot be read is passed over with a warning: new grids cost readers
    /// more work, never safety.
    private func load() {
        guard !loaded else { return }
        loaded = true
        guard let path, let data = FileManager.default.contents(atPath: path) else { return }
        guard let decoded = try? JSONDecoder().decode([Kept].self, from: data) else {
            printError("chest: warning: \(path) is not a list of sealed grids; new grids are drawn")
            return
        }
        for grid in decoded {
            guard let salt = Data(base64Encoded: grid.salt), salt.count == SealedPage.saltBytes else { continue }
            let cells = CellGrid(
                width: grid.key.width, offsetX: grid.offsetX, offsetY: grid.offsetY,
                referenceLatitude: grid.referenceLatitude, referenceLongitude: grid.referenceLongitude,
                area: grid.key.area)
            guard cells.isValid else { continue }
            grids[grid.key] = (cells, [UInt8](salt))
            earlier.insert([UInt8](salt))
            if grid.isDefault { defaults.keep(cells, salt: [UInt8](salt)) }
            kept.append(grid)
        }
    }

    /// The grid and salt for a place of `radius` at `point`, in `declared` or a default area; `block` is the side of
    /// the key block (`CellGrid.keyBlock`): 3 lays a grid of cells half as wide.
    func grid(for point: Coordinate, radius: Double, declared: SearchArea?, block: Int = 2) -> (
        grid: CellGrid, salt: [UInt8]
    ) {
        load()
        guard let declared else {
            let made = defaults.grid(
                for: point, radius: radius, block: block,
                salt: { Sealer.randomBytes(SealedPage.saltBytes) }, using: &random)
            keep(made, isDefault: true)
            return made
        }
        let key = Key(area: declared, width: CellGrid.width(over: declared, radius: radius, block: block))
        if let known = grids[key] { return known }
        let made = (
            CellGrid(area: declared, radius: radius, block: block, using: &random),
            Sealer.randomBytes(SealedPage.saltBytes)
        )
        keep(made, isDefault: false)
        return made
    }

    private func keep(_ made: (grid: CellGrid, salt: [UInt8]), isDefault: Bool) {
        guard let area = made.grid.area else { return }
        let key = Key(area: area, width: made.grid.width)
        grids[key] = made
        kept.append(
            Kept(
                key: key, offsetX: made.grid.offsetX, offsetY: made.grid.offsetY,
                referenceLatitude: made.grid.referenceLatitude, referenceLongitude: made.grid.referenceLongitude,
                salt: Data(made.salt).base64EncodedString(), isDefault: isDefault))
    }

    /// Writes the grids for the organiser's next compose; a failure is only a warning.
    func save() {
        guard let path, loaded else { return }
        do {
            try Directory.create(directoryName(path))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(kept), to: path)
        } catch {
            printError(
                "chest: warning: cannot keep the sealed grids in \(path) (\(error)); your next messages get new ones")
        }
    }

    /// Whether the grid of `salt` was laid by an earlier message: its places fall to the same sweep as this one's.
    func wasKept(_ salt: [UInt8]) -> Bool { earlier.contains(salt) }
}
