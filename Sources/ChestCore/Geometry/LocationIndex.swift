/// Pending location locks by grid cell, so a fix costs the locks near it rather than all of them (docs/DESIGN.md "Performance targets").
///
/// Two grids by size: a circle is filed in the fine grid (0.0025°, about 280 m of latitude) under every cell its
/// bounding box touches, or, when that would be more than `maximumCells` (a radius over about 700 m), in the coarse
/// grid (0.025°); one too wide even for that (over about 7 km) goes on a short list that every query checks. A fix
/// reads only the circles filed in its cell of each grid, and since each circle sits in the grid that fits its size,
/// a cell's candidates are circles that reach near the fix, not every circle within a kilometre of it.
package struct LocationIndex<Key: Hashable & Sendable>: Sendable {
    package struct Circle: Sendable {
        package var key: Key
        package var center: Coordinate
        package var radius: Double
    }

    /// What the hot loop reads of a circle, by slot: kept apart from the key so a query touches 24 bytes a candidate.
    struct Disc: Sendable {
        var center: Coordinate
        var radius: Double
    }

    struct Cell: Hashable, Sendable {
        var row: Int32
        var column: Int32
    }

    /// The rectangle of cells a circle is filed under.
    struct Block: Hashable, Sendable {
        var low: Cell
        var high: Cell

        var cells: [Cell] {
            (low.row...high.row).flatMap { row in (low.column...high.column).map { Cell(row: row, column: $0) } }
        }
    }

    /// Where a circle is filed.
    enum Placement: Hashable, Sendable {
        case grid(Int, Block)
        case wide
    }

    /// Cells of `degrees` square, each listing the slots of the circles filed under it.
    struct Grid: Sendable {
        let degrees: Double
        var cells: [Cell: [Int32]] = [:]

        init(degrees: Double) { self.degrees = degrees }

        func cell(of point: Coordinate) -> Cell {
            Cell(
                row: Int32((point.latitude / degrees).rounded(.down)),
                column: Int32((point.longitude / degrees).rounded(.down)))
        }

        /// The cells a circle's bounding box touches, or nil when that would be more than `maximumCells`.
        func block(around center: Coordinate, radius: Double) -> Block? {
            let latitudeSpan = radius / LocationIndex.metresPerDegree
            // Near a pole a circle's longitude span explodes, and across ±180° the columns wrap: the short list
            // handles both rather than a grid that does not wrap.
            guard abs(center.latitude) + latitudeSpan < 89 else { return nil }
            let shrink = cosine((abs(center.latitude) + latitudeSpan) * .pi / 180)
            let longitudeSpan = radius / (LocationIndex.metresPerDegree * shrink)
            guard abs(center.longitude) + longitudeSpan < 180 else { return nil }
            let low = cell(
                of: Coordinate(latitude: center.latitude - latitudeSpan, longitude: center.longitude - longitudeSpan))
            let high = cell(
                of: Coordinate(latitude: center.latitude + latitudeSpan, longitude: center.longitude + longitudeSpan))
            let rows = Int(high.row - low.row) + 1
            let columns = Int(high.column - low.column) + 1
            guard rows * columns <= LocationIndex.maximumCells else { return nil }
            return Block(low: low, high: high)
        }

        mutating func file(_ slot: Int32, under block: Block) {
            for cell in block.cells { cells[cell, default: []].append(slot) }
        }

        mutating func unfile(_ slot: Int32, from block: Block) {
            for cell in block.cells {
                guard var slots = cells.removeValue(forKey: cell) else { continue }
                if let at = slots.firstIndex(of: slot) {
                    slots.swapAt(at, slots.count - 1)
                    slots.removeLast()
                }
                if !slots.isEmpty { cells[cell] = slots }
            }
        }
    }

    static var metresPerDegree: Double { Coordinate.earthRadius * .pi / 180 }
    static var maximumCells: Int { 64 }

    /// The grids' cell sizes in degrees, finest first.
    static var gridDegrees: [Double] { [0.0025, 0.025] }

    private var grids = gridDegrees.map(Grid.init)
    private var wide: [Int32] = []
    /// Each key's slot, found through `keys` (a dictionary of key to slot kept each key again, 46 bytes a circle).
    private var slots = PositionTable()
    private var keys: [Key?] = []
    private var discs: [Disc] = []
    private var freeSlots: [Int32] = []

    package init() {}

    package var count: Int { slots.count }

    /// Files a circle under `key`, replacing any earlier one.
    package mutating func insert(_ key: Key, center: Coordinate, radius: Double) {
        remove(key)
        let placement = Self.placement(in: grids, around: center, radius: radius)
        let disc = Disc(center: center, radius: radius)
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            keys[Int(slot)] = key
            discs[Int(slot)] = disc
        } else {
            slot = Int32(keys.count)
            keys.append(key)
            discs.append(disc)
        }
        let current = keys
        slots.insert(slot, for: key) { current[Int($0)]! }
        switch placement {
        case let .grid(grid, block): grids[grid].file(slot, under: block)
        case .wide: wide.append(slot)
        }
    }

    package mutating func remove(_ key: Key) {
        let removed: Int32?
        do {
            // The keys referred to twice only while the table reads them: the write below would copy them all.
            let current = keys
            removed = slots.remove(key) { current[Int($0)]! }
        }
        guard let slot = removed else { return }
        // Where it was filed follows from its disc alone: not kept, 32 bytes a circle saved.
        let disc = discs[Int(slot)]
        switch Self.placement(in: grids, around: disc.center, radius: disc.radius) {
        case let .grid(grid, block): grids[grid].unfile(slot, from: block)
        case .wide: wide.removeAll { $0 == slot }
        }
        keys[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// The circles that contain `point`, each with its distance from the centre in metres.
    package func containing(_ point: Coordinate) -> [(circle: Circle, distance: Double)] {
        var hits: [(circle: Circle, distance: Double)] = []
        // A flat-earth distance, one cosine a query, rules out the circles clearly away from the point before the
        // haversine (two sines, two cosines and an arcsine each): most candidates of a cell are misses. A filed
        // circle spans at most a few kilometres below 89°, where the flat distance is within a few per cent of the
        // true one; the margin of 10 % keeps every near miss for the exact test.
        let eastWest = Self.metresPerDegree * cosine(point.latitude * .pi / 180)
        discs.withUnsafeBufferPointer { discs in
            for grid in grids {
                guard let candidates = grid.cells[grid.cell(of: point)] else { continue }
                for slot in candidates {
                    let disc = discs[Int(slot)]
                    let reach = disc.radius * 1.1 + 1
                    let dy = (point.latitude - disc.center.latitude) * Self.metresPerDegree
                    guard abs(dy) <= reach else { continue }
                    let dx = (point.longitude - disc.center.longitude) * eastWest
                    guard dx * dx + dy * dy <= reach * reach else { continue }
                    if let hit = hit(slot, disc, point) { hits.append(hit) }
                }
            }
            for slot in wide { if let hit = hit(slot, discs[Int(slot)], point) { hits.append(hit) } }
        }
        return hits
    }

    /// How many circles a query at `point` reads: those filed in its cell of each grid, and the wide list.
    func candidates(of point: Coordinate) -> Int {
        grids.reduce(wide.count) { total, grid in total + (grid.cells[grid.cell(of: point)]?.count ?? 0) }
    }

    private func hit(_ slot: Int32, _ disc: Disc, _ point: Coordinate) -> (circle: Circle, distance: Double)? {
        let distance = point.distance(to: disc.center)
        guard distance <= disc.radius, let key = keys[Int(slot)] else { return nil }
        return (Circle(key: key, center: disc.center, radius: disc.radius), distance)
    }

    /// Where a circle is filed: the first grid whose cells it fits, else the wide list.
    static func placement(in grids: [Grid], around center: Coordinate, radius: Double) -> Placement {
        for (grid, cells) in grids.enumerated() {
            if let block = cells.block(around: center, radius: radius) { return .grid(grid, block) }
        }
        return .wide
    }

    /// Where a circle of `radius` around `center` would be filed, and the cell size of its grid (for tests).
    static func placement(around center: Coordinate, radius: Double) -> (degrees: Double, block: Block)? {
        let grids = gridDegrees.map(Grid.init)
        guard case let .grid(grid, block) = placement(in: grids, around: center, radius: radius) else { return nil }
        return (grids[grid].degrees, block)
    }
}
