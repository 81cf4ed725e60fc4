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
            if grid.isDefault && !defaultAreas.contains(grid.key.area) { defaultAreas.append(grid.key.area) }
            kept.append(grid)
        }
    }

    /// The grid and salt for a place of `radius` at `point`, in `declared` or a default area.
    func grid(for point: Coordinate, radius: Double, declared: SearchArea?) -> (grid: CellGrid, salt: [UInt8]) {
        load()
        let area = declared ?? defaultArea(for: point, radius: radius)
        let key = Key(area: area, width: CellGrid.width(over: area, radius: radius))
        if let known = grids[key] { return known }
        let grid = CellGrid(area: area, radius: radius, using: &random)
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
