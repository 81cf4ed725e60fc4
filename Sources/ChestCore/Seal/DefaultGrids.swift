/// The grids of one organiser's places without a declared search area (docs/SECURITY.md "Default areas"): each place
/// gets a disk drawn afresh around it, whatever the organiser laid before, so no area says anything of another's
/// place; and the places share a grid (shift, width, reference, salt) wherever its cells serve the new area, so that a
/// reader's chestd derives a cell's key once for all of them (`KeyRequest.Derivation` does not hold the area).
package struct DefaultGrids: Sendable {
    /// Each grid with its salt, the area it was first laid over in the grid.
    package private(set) var grids: [(grid: CellGrid, salt: [UInt8])] = []

    package init() {}

    /// Takes in a grid laid earlier (kept by the organiser), so that later places may share it.
    package mutating func keep(_ grid: CellGrid, salt: [UInt8]) {
        guard !grids.contains(where: { $0.salt == salt }) else { return }
        grids.append((grid, salt))
    }

    /// The grid of a place of `radius` at `point` with key blocks of `block`: over a default area drawn afresh around
    /// it, on the first grid that serves that area, else on a new one with a salt from `salt`.
    package mutating func grid<Generator: RandomNumberGenerator>(
        for point: Coordinate, radius: Double, block: Int,
        salt: () -> [UInt8],
        using generator: inout Generator
    ) -> (grid: CellGrid, salt: [UInt8]) {
        let area = Self.area(around: point, radius: radius, using: &generator)
        if let shared = grids.first(where: { $0.grid.serves(area, radius: radius, block: block) }) {
            var grid = shared.grid
            grid.area = area
            return (grid, shared.salt)
        }
        let made = (grid: CellGrid(defaultArea: area, radius: radius, block: block, using: &generator), salt: salt())
        grids.append(made)
        return made
    }

    /// A default area that holds the place whole (the reader may stand at its edge), drawn uniformly around it.
    package static func area<Generator: RandomNumberGenerator>(
        around point: Coordinate, radius: Double,
        using generator: inout Generator
    ) -> SearchArea {
        var area = SearchArea.random(around: point, radius: SearchArea.defaultRadius, using: &generator)
        while area.center.distance(to: point) + radius > area.radius || !area.isValid {
            area = SearchArea.random(around: point, radius: SearchArea.defaultRadius, using: &generator)
        }
        return area
    }
}

extension CellGrid {
    /// How many degrees of latitude beyond its first area a default grid's width allows for, so that areas drawn later
    /// around the organiser's other places, further from the equator, can share it.
    package static let defaultMargin = 1.4
    /// How far (degrees) a default area's centre may lie from a grid's reference to share it: the cells' ground width
    /// changes with cos φ / cos φ0, and the figure counts what it is (`BruteForce`).
    package static let sharedLatitude = 2.1
    package static let sharedLongitude = 7.0

    /// A grid for default areas: as `init(area:radius:block:using:)`, its width bounding the stretch `defaultMargin`
    /// degrees further from the equator than `area` reaches.
    package init<Generator: RandomNumberGenerator>(
        defaultArea area: SearchArea, radius: Double, block: Int,
        using generator: inout Generator
    ) {
        self.init(area: area, radius: radius, block: block, using: &generator)
        width = Self.defaultWidth(over: area, radius: radius, block: block)
        offsetX = Double.random(in: 0..<width, using: &generator)
        offsetY = Double.random(in: 0..<width, using: &generator)
    }

    static func defaultWidth(over area: SearchArea, radius: Double, block: Int) -> Double {
        let farthest = abs(area.latitude) + area.radius / Coordinate.earthRadius * 180 / .pi + defaultMargin
        return width(latitude: farthest, referenceLatitude: Int(area.latitude.rounded()), radius: radius, block: block)
    }

    /// Whether this default grid can carry a place of `radius` anywhere in `area`: its cells are wide enough there
    /// (the stretch from its reference latitude) and at most 15 % wider than needed (a grid of places of another
    /// radius is not shared), and the area is near its reference. A function of the area alone, so sharing a grid
    /// tells nothing of the place.
    package func serves(_ area: SearchArea, radius: Double, block: Int) -> Bool {
        let farthest = abs(area.latitude) + area.radius / Coordinate.earthRadius * 180 / .pi
        var Δλ = area.longitude - Double(referenceLongitude)
        if Δλ > 180 { Δλ -= 360 } else if Δλ <= -180 { Δλ += 360 }
        let needed = Self.width(latitude: farthest, referenceLatitude: referenceLatitude, radius: radius, block: block)
        return needed <= width && width <= needed * 1.15
            && abs(area.latitude - Double(referenceLatitude)) <= Self.sharedLatitude && abs(Δλ) <= Self.sharedLongitude
    }
}
