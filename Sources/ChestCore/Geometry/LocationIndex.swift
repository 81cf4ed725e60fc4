/// Pending location locks by grid cell, so a fix costs the locks near it rather than all of them (docs/DESIGN.md "Performance targets").
///
/// The grid is 0.01° square (about 1.1 km of latitude). A circle is filed under every cell its bounding box
/// touches; one that would span more than `maximumCells` (a radius of several kilometres) goes on a short list
/// that every query checks.
public struct LocationIndex<Key: Hashable & Sendable>: Sendable {
    public struct Circle: Sendable {
        public var key: Key
        public var center: Coordinate
        public var radius: Double
    }

    /// What a cell keeps of a circle; the key is the cell's dictionary key.
    struct Disc: Sendable {
        var center: Coordinate
        var radius: Double
    }

    struct Cell: Hashable, Sendable {
        var row: Int32
        var column: Int32
    }

    /// The rectangle of cells a circle is filed under (kept instead of a list: one allocation fewer a lock).
    struct Block: Hashable, Sendable {
        var low: Cell
        var high: Cell

        var cells: [Cell] {
            (low.row...high.row).flatMap { row in (low.column...high.column).map { Cell(row: row, column: $0) } }
        }
    }

    static var cellDegrees: Double { 0.01 }
    static var maximumCells: Int { 36 }

    private var cells: [Cell: [Key: Disc]] = [:]
    private var wide: [Key: Circle] = [:]
    private var filed: [Key: Block] = [:]

    public init() {}

    public var count: Int { filed.count + wide.count }

    /// Files a circle under `key`, replacing any earlier one.
    public mutating func insert(_ key: Key, center: Coordinate, radius: Double) {
        remove(key)
        let circle = Circle(key: key, center: center, radius: radius)
        guard let block = Self.block(around: center, radius: radius) else {
            wide[key] = circle
            return
        }
        let disc = Disc(center: center, radius: radius)
        for cell in block.cells { cells[cell, default: [:]][key] = disc }
        filed[key] = block
    }

    public mutating func remove(_ key: Key) {
        if wide.removeValue(forKey: key) != nil { return }
        guard let block = filed.removeValue(forKey: key) else { return }
        for cell in block.cells {
            cells[cell]?.removeValue(forKey: key)
            if cells[cell]?.isEmpty == true { cells.removeValue(forKey: cell) }
        }
    }

    /// The circles that contain `point`, each with its distance from the centre in metres.
    public func containing(_ point: Coordinate) -> [(circle: Circle, distance: Double)] {
        var hits: [(Circle, Double)] = []
        guard let candidates = cells[Self.cell(of: point)] else { return wide.isEmpty ? [] : containingWide(point) }
        // A flat-earth distance, one cosine a query, rules out the circles clearly away from the point before the
        // haversine (two sines, two cosines and an arcsine each): in a dense area most candidates of a cell are
        // misses. A filed circle spans at most a few kilometres below 89°, where the flat distance is within a few
        // per cent of the true one; the margin of 10 % keeps every near miss for the exact test.
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let eastWest = metresPerDegree * cosine(point.latitude * .pi / 180)
        for (key, disc) in candidates {
            let reach = disc.radius * 1.1 + 1
            let dy = (point.latitude - disc.center.latitude) * metresPerDegree
            guard abs(dy) <= reach else { continue }
            let dx = (point.longitude - disc.center.longitude) * eastWest
            guard dx * dx + dy * dy <= reach * reach else { continue }
            let distance = point.distance(to: disc.center)
            if distance <= disc.radius { hits.append((Circle(key: key, center: disc.center, radius: disc.radius), distance)) }
        }
        return wide.isEmpty ? hits : hits + containingWide(point)
    }

    /// The circles too wide (or too near a pole or the antimeridian) to file in cells that contain `point`.
    private func containingWide(_ point: Coordinate) -> [(circle: Circle, distance: Double)] {
        wide.values.compactMap { circle in
            let distance = point.distance(to: circle.center)
            return distance <= circle.radius ? (circle, distance) : nil
        }
    }

    static func cell(of point: Coordinate) -> Cell {
        Cell(row: Int32((point.latitude / cellDegrees).rounded(.down)),
             column: Int32((point.longitude / cellDegrees).rounded(.down)))
    }

    /// The cells a circle's bounding box touches, or nil when that would be more than `maximumCells`.
    static func block(around center: Coordinate, radius: Double) -> Block? {
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let latitudeSpan = radius / metresPerDegree
        // Near a pole a circle's longitude span explodes, and across ±180° the columns wrap: the short list
        // handles both rather than a grid that does not wrap.
        guard abs(center.latitude) + latitudeSpan < 89 else { return nil }
        let shrink = cosine((abs(center.latitude) + latitudeSpan) * .pi / 180)
        let longitudeSpan = radius / (metresPerDegree * shrink)
        guard abs(center.longitude) + longitudeSpan < 180 else { return nil }
        let low = cell(of: Coordinate(latitude: center.latitude - latitudeSpan, longitude: center.longitude - longitudeSpan))
        let high = cell(of: Coordinate(latitude: center.latitude + latitudeSpan, longitude: center.longitude + longitudeSpan))
        let rows = Int(high.row - low.row) + 1, columns = Int(high.column - low.column) + 1
        guard rows * columns <= maximumCells else { return nil }
        return Block(low: low, high: high)
    }
}
