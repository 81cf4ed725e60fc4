import FoundationEssentials
import Glibc

/// One cell of a sealed location's grid: column `x`, row `y` (docs/FORMAT.md "Sealed locations").
package struct Cell: Hashable, Sendable, Codable, CustomStringConvertible {
    package var x: Int64
    package var y: Int64

    package init(x: Int64, y: Int64) {
        self.x = x
        self.y = y
    }

    /// "I,J", as the secret string writes it.
    package var description: String { "\(x),\(y)" }
}

/// The public helper data of a sealed location lock: a square grid on a local metric projection
/// (docs/FORMAT.md "Sealed locations").
///
/// Format 3 draws the grid's shift at random and states the search area the place lies in, so nothing public depends
/// on the point (docs/FORMAT.md "Format 3"). Format 2 shifted the grid to centre the point in its cell, which tells
/// the point to whoever enumerates the decimals it was typed with (docs/SECURITY.md "Format 2's leak").
package struct CellGrid: Hashable, Sendable {
    /// Cell width in metres.
    package var width: Double
    /// The public offset `h`, in metres, each in `0..<width`.
    package var offsetX: Double
    package var offsetY: Double
    /// Whole degrees near the point: the projection's reference latitude φ0 and longitude λ0.
    package var referenceLatitude: Int
    package var referenceLongitude: Int
    /// Format 3: the declared search area; the grid is laid over it and the reader tries no cell outside it.
    package var area: SearchArea?

    package init(
        width: Double, offsetX: Double, offsetY: Double, referenceLatitude: Int, referenceLongitude: Int,
        area: SearchArea? = nil
    ) {
        self.width = width
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.referenceLatitude = referenceLatitude
        self.referenceLongitude = referenceLongitude
        self.area = area
    }

    /// A sealed point may lie at most this far from the equator: nearer a pole the projection's distortion grows
    /// without bound.
    package static let maximumLatitude = 88.0
    /// Cells wider than this are refused: a grid that coarse hides nothing.
    package static let maximumWidth = 100_000.0

    /// Format 3: a grid over `area` for places of `radius`, its shift drawn uniformly from `generator`, so where a
    /// place sits in its cell is uniformly random from the file's view. The reference is the area's centre in whole
    /// degrees and the width bounds the stretch over the whole area, so neither depends on the place.
    /// `block` is the side of the block of cells a place's keys cover (`keyBlock(version:withPIN:)`).
    package init<Generator: RandomNumberGenerator>(
        area: SearchArea, radius: Double, block: Int = 2,
        using generator: inout Generator
    ) {
        let φ0 = Int(area.latitude.rounded())
        let λ0 = Self.normalised(Int(area.longitude.rounded()))
        let width = Self.width(over: area, radius: radius, block: block)
        self.init(
            width: width, offsetX: Double.random(in: 0..<width, using: &generator),
            offsetY: Double.random(in: 0..<width, using: &generator), referenceLatitude: φ0, referenceLongitude: λ0,
            area: area)
    }

    /// The width of a format 3 grid for places of `radius` anywhere in `area`: it bounds the stretch over the
    /// whole area, so it depends on the area and the radius only. With `block` 3 (or 4) the cells are half (or a
    /// third) as wide, so a place's disk spans at most `block` columns and rows.
    package static func width(over area: SearchArea, radius: Double, block: Int = 2) -> Double {
        let farthest = abs(area.latitude) + area.radius / Coordinate.earthRadius * 180 / .pi
        return width(latitude: farthest, referenceLatitude: Int(area.latitude.rounded()), radius: radius, block: block)
    }

    /// The side of the square block of cells whose keys a place's slot holds: 2 (cells as wide as the place); for a
    /// place sealed with a PIN, 3 in format 4 (cells half as wide) and 4 in format 5 (a third as wide), so that the
    /// lattice an attacker sweeps is one cell in 16 of nine times as many cells rather than one in four (docs/SECURITY.md
    /// "What a place is worth"). A place alone keeps 2: the reader derives a key in every cell it settles in, and
    /// finer cells would mean more of them.
    package static func keyBlock(version: Int, withPIN: Bool) -> Int {
        guard withPIN else { return 2 }
        return version >= 5 ? 4 : version == 4 ? 3 : 2
    }

    /// The cells a disk of `radius` around `center` touches: at most 2 × 2, since the width is at least the disk's
    /// stretched diameter (docs/FORMAT.md "Format 3"); at most `block` × `block` on a grid of 1 / (block − 1) that
    /// width (formats 4 and 5). Each holds a key slot, so a reader anywhere in the disk derives a key that opens the
    /// page.
    package func cells(touching center: Coordinate, radius: Double) -> [Cell] {
        let (x, y) = project(center)
        let band = min(abs(center.latitude) + radius / Coordinate.earthRadius * 180 / .pi, 89.9)
        let stretch = max(1, cosReference / cos(band * .pi / 180))
        let halfX = radius * stretch * 1.01 + 1
        let halfY = radius * 1.01 + 1
        func index(_ value: Double, _ offset: Double) -> Int64 { Int64(((value - offset) / width).rounded(.down)) }
        var cells: [Cell] = []
        for column in index(x - halfX, offsetX)...index(x + halfX, offsetX) {
            for row in index(y - halfY, offsetY)...index(y + halfY, offsetY) { cells.append(Cell(x: column, y: row)) }
        }
        return cells
    }

    /// Whether a reader at `point` could be within `slack` metres of a place in the search area; always for format 2.
    package func mayHold(_ point: Coordinate, slack: Double) -> Bool {
        guard let area else { return true }
        return area.center.distance(to: point) <= area.radius + slack
    }

    /// The grid that centres a cell on `center` and makes every point within `radius` fall in that cell: format 2's,
    /// kept to read and test format 2 files; `compose` no longer writes it.
    package init(center: Coordinate, radius: Double) {
        let φ0 = Int(center.latitude.rounded())
        let λ0 = Self.normalised(Int(center.longitude.rounded()))
        let width = Self.width(latitude: center.latitude, referenceLatitude: φ0, radius: radius)
        self.init(width: width, offsetX: 0, offsetY: 0, referenceLatitude: φ0, referenceLongitude: λ0)
        let (x, y) = project(center)
        offsetX = Self.modulo(x - width / 2, width)
        offsetY = Self.modulo(y - width / 2, width)
    }

    /// w = 2r·k·1.01 + 2 m, rounded up to a metre, where k ≥ 1 bounds how much the projection stretches east-west
    /// distances anywhere within the circle (docs/FORMAT.md "Sealed locations"); for a key block of 3 or 4, a half or
    /// a third of that, rounded up to a tenth of a metre (docs/FORMAT.md "Format 4", "Format 5").
    static func width(latitude: Double, referenceLatitude: Int, radius: Double, block: Int = 2) -> Double {
        let band = min(abs(latitude) + radius / Coordinate.earthRadius * 180 / .pi, 89.9)
        let stretch = max(1, cos(Double(referenceLatitude) * .pi / 180) / cos(band * .pi / 180))
        guard block > 2 else { return (2 * radius * stretch * 1.01 + 2).rounded(.up) }
        // Finer cells, to a tenth of a metre: a whole metre more would be 3 % fewer cells.
        return ((2 * radius * stretch * 1.01 + 2) / Double(block - 1) * 10).rounded(.up) / 10
    }

    /// The point on the local metric grid: y = R·φ, x = R·cos φ0·wrap(λ − λ0), in metres.
    package func project(_ point: Coordinate) -> (x: Double, y: Double) {
        let radians = Double.pi / 180
        var Δλ = (point.longitude - Double(referenceLongitude)) * radians
        if Δλ > .pi { Δλ -= 2 * .pi } else if Δλ <= -.pi { Δλ += 2 * .pi }
        return (Coordinate.earthRadius * cosReference * Δλ, Coordinate.earthRadius * point.latitude * radians)
    }

    /// cos φ0; computed once per call of `cell(of:)` is cheap enough, but a grid filed by the thousand keeps it.
    var cosReference: Double { cos(Double(referenceLatitude) * .pi / 180) }

    /// The cell holding `point`: (⌊(x − h_x)/w⌋, ⌊(y − h_y)/w⌋).
    package func cell(of point: Coordinate) -> Cell {
        let (x, y) = project(point)
        return Cell(x: Int64(((x - offsetX) / width).rounded(.down)), y: Int64(((y - offsetY) / width).rounded(.down)))
    }

    /// Whether the parameters are ones a reader can use: finite, offsets inside the cell, the reference a real
    /// place, the width sane.
    package var isValid: Bool {
        (area?.isValid ?? true) && width.isFinite && width >= Lock.minimumRadius && width <= Self.maximumWidth
            && offsetX.isFinite && offsetY.isFinite && (0..<width).contains(offsetX) && (0..<width).contains(offsetY)
            && abs(referenceLatitude) <= Int(Self.maximumLatitude) + 1 && (-179...180).contains(referenceLongitude)
    }

    static func modulo(_ value: Double, _ divisor: Double) -> Double {
        let remainder = value.truncatingRemainder(dividingBy: divisor)
        return remainder < 0 ? remainder + divisor : remainder
    }

    /// A whole longitude in -179...180.
    static func normalised(_ longitude: Int) -> Int {
        longitude <= -180 ? longitude + 360 : longitude > 180 ? longitude - 360 : longitude
    }
}
