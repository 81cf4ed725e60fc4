import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// The grids an organiser lays sealed places on (docs/FORMAT.md "Format 3"): one per search area and cell width,
/// with its random shift and Argon2id salt, kept in the config directory (`grids.json`) so that every message the
/// organiser composes in one area, in one run or many, shares it and a reader's chestd derives a cell's key once for
/// all of them. A place with no declared area gets a default one: a random disk about 1° across, shared by the
/// organiser's later places that lie in it whole.
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
    private var defaultAreas: [SearchArea] = []
    private var kept: [Kept] = []
    /// The grids read from `path`: laid by earlier messages.
    private var earlier: Set<CellGrid> = []
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
            let cells = CellGrid(width: grid.key.width, offsetX: grid.offsetX, offsetY: grid.offsetY,
                                 referenceLatitude: grid.referenceLatitude, referenceLongitude: grid.referenceLongitude,
                                 area: grid.key.area)
            guard cells.isValid else { continue }
            grids[grid.key] = (cells, [UInt8](salt))
            earlier.insert(cells)
            if grid.isDefault && !defaultAreas.contains(grid.key.area) { defaultAreas.append(grid.key.area) }
            kept.append(grid)
        }
    }

    /// The grid and salt for a place of `radius` at `point`, in `declared` or a default area.
    /// `block` is the side of the key block (`CellGrid.keyBlock`): 3 lays a grid of cells half as wide.
    func grid(for point: Coordinate, radius: Double, declared: SearchArea?, block: Int = 2) -> (grid: CellGrid, salt: [UInt8]) {
        load()
        let area = declared ?? defaultArea(for: point, radius: radius)
        let key = Key(area: area, width: CellGrid.width(over: area, radius: radius, block: block))
        if let known = grids[key] { return known }
        let grid = CellGrid(area: area, radius: radius, block: block, using: &random)
        let made = (grid, Sealer.randomBytes(SealedPage.saltBytes))
        grids[key] = made
        kept.append(Kept(key: key, offsetX: grid.offsetX, offsetY: grid.offsetY, referenceLatitude: grid.referenceLatitude,
                         referenceLongitude: grid.referenceLongitude, salt: Data(made.1).base64EncodedString(),
                         isDefault: declared == nil))
        return made
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
            printError("chest: warning: cannot keep the sealed grids in \(path) (\(error)); your next messages get new ones")
        }
    }

    /// Whether `grid` was laid by an earlier message: its places fall to the same sweep as this one's.
    func wasKept(_ grid: CellGrid) -> Bool { earlier.contains(grid) }

    /// The share of a default `area` an attacker may leave out: a place is given the first earlier default area it
    /// lies in whole, so a place in a later area is not in the parts it shares with earlier ones (docs/SECURITY.md
    /// "Default areas"). 0 for declared areas and for the first default area.
    func excludedShare(_ area: SearchArea) -> Double {
        guard let index = defaultAreas.firstIndex(of: area) else { return 0 }
        let overlap = defaultAreas[..<index].reduce(0.0) { $0 + Self.lens($1, area) }
        return min(1, overlap / area.area)
    }

    /// The area two disks share, in square metres (planar: areas are small beside the Earth).
    static func lens(_ a: SearchArea, _ b: SearchArea) -> Double {
        let d = a.center.distance(to: b.center), r1 = a.radius, r2 = b.radius
        if d >= r1 + r2 { return 0 }
        if d <= abs(r1 - r2) { return Double.pi * pow(min(r1, r2), 2) }
        let α = acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1)), β = acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
        return r1 * r1 * (α - sin(2 * α) / 2) + r2 * r2 * (β - sin(2 * β) / 2)
    }

    private func defaultArea(for point: Coordinate, radius: Double) -> SearchArea {
        // A disk that holds the place whole, not only its centre: the reader may stand at its edge.
        if let shared = defaultAreas.first(where: { $0.center.distance(to: point) + radius <= $0.radius }) { return shared }
        var area = SearchArea.random(around: point, radius: SearchArea.defaultRadius, using: &random)
        while area.center.distance(to: point) + radius > area.radius || !area.isValid {
            area = SearchArea.random(around: point, radius: SearchArea.defaultRadius, using: &random)
        }
        defaultAreas.append(area)
        return area
    }
}
