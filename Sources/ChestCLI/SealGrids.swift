import ChestCore
import ChestSeal

/// The grids one `compose` run (a message, or every message of a quest) lays its sealed places on
/// (docs/FORMAT.md "Format 3"): one per search area and cell width, with its random shift and Argon2id salt, so a
/// reader's chestd derives a cell's key once for every place on it. A place with no declared area gets the default
/// one: a random disk about 1° across, shared by the later places of the run that fall inside it.
final class SealGrids {
    private struct Key: Hashable {
        var area: SearchArea
        var width: Double
    }

    private var grids: [Key: (grid: CellGrid, salt: [UInt8])] = [:]
    private var defaultAreas: [SearchArea] = []
    private var random = SystemRandomNumberGenerator()

    /// The grid and salt for a place of `radius` at `point`, in `declared` or a default area.
    func grid(for point: Coordinate, radius: Double, declared: SearchArea?) -> (grid: CellGrid, salt: [UInt8]) {
        let area = declared ?? defaultArea(for: point, radius: radius)
        let probe = CellGrid(area: area, radius: radius, using: &random)
        let key = Key(area: area, width: probe.width)
        if let known = grids[key] { return known }
        let made = (probe, Sealer.randomBytes(SealedPage.saltBytes))
        grids[key] = made
        return made
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
