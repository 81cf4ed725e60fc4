import FoundationEssentials
import Glibc

/// A disk on the Earth, its centre and radius in metres, in two roles that share one disk type: the area an
/// organiser admits a sealed place lies in, the one thing a format 3 file says about where the place is
/// (docs/FORMAT.md "Format 3", docs/SECURITY.md "What a place is worth"); and a sealed place itself, its exact point
/// and radius, known once a cell key opens the page's ciphertext (`SealedContent`).
package struct SearchArea: Hashable, Sendable, Codable, CustomStringConvertible {
    package var latitude: Double
    package var longitude: Double
    /// Metres.
    package var radius: Double

    package init(center: Coordinate, radius: Double) {
        latitude = center.latitude
        longitude = center.longitude
        self.radius = radius
    }

    package var center: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// The default area's radius: a disk about 3° of latitude across, drawn at random around the place so that the
    /// file says no more than "somewhere in these 91,000 km²". Its size costs a reader's core nothing per cell (keys
    /// are derived only for the cells a reader settles in) and sets what a place alone is worth against the lattice
    /// sweep (docs/SECURITY.md "What a place is worth", "Costs that fit the secret").
    package static let defaultRadius = 170_000.0
    /// A declared area is at least this wide (a smaller one gives the place away to a search of minutes) and at most
    /// this: past it a reader's grid stretches too much to stay honest.
    package static let minimumRadius = 100.0
    package static let maximumRadius = 500_000.0

    /// Square metres.
    package var area: Double { Double.pi * radius * radius }

    /// The area the union of `areas` covers, in square metres: exact for one disk, else counted on a 400 × 400 lattice
    /// over their bounding box on a local plane (about 0.5 % off), which is what one sweep of them all must search.
    package static func union(_ areas: [SearchArea]) -> Double {
        guard let first = areas.first else { return 0 }
        guard areas.contains(where: { $0 != first }) else { return first.area }
        let metres = Coordinate.earthRadius * .pi / 180
        let cosφ = cos(first.latitude * .pi / 180)
        let disks = areas.map { area -> (x: Double, y: Double, r: Double) in
            var Δλ = area.longitude - first.longitude
            if Δλ > 180 { Δλ -= 360 } else if Δλ <= -180 { Δλ += 360 }
            return (Δλ * metres * cosφ, (area.latitude - first.latitude) * metres, area.radius)
        }
        let left = disks.map { $0.x - $0.r }.min()!
        let right = disks.map { $0.x + $0.r }.max()!
        let bottom = disks.map { $0.y - $0.r }.min()!
        let top = disks.map { $0.y + $0.r }.max()!
        let steps = 400
        let dx = (right - left) / Double(steps)
        let dy = (top - bottom) / Double(steps)
        var inside = 0
        for i in 0..<steps {
            let x = left + (Double(i) + 0.5) * dx
            for j in 0..<steps {
                let y = bottom + (Double(j) + 0.5) * dy
                if disks.contains(where: { ($0.x - x) * ($0.x - x) + ($0.y - y) * ($0.y - y) <= $0.r * $0.r }) {
                    inside += 1
                }
            }
        }
        return Double(inside) * dx * dy
    }

    /// Whether `point` lies inside.
    package func contains(_ point: Coordinate) -> Bool { center.distance(to: point) <= radius }

    /// Whether a sealed grid can be laid over the whole area (it stays clear of the poles).
    /// As a sealed place: a real point, and a radius no smaller than a location lock's.
    package var isValidPlace: Bool {
        center.isValid && radius.isFinite && radius >= Lock.minimumRadius
    }

    /// As a search area: a real point, and a radius within the declared bounds.
    package var isValid: Bool {
        center.isValid && radius.isFinite && (Self.minimumRadius...Self.maximumRadius).contains(radius)
            && abs(latitude) + radius / Coordinate.earthRadius * 180 / .pi <= CellGrid.maximumLatitude
    }

    /// The default area of `point`: a disk of `defaultRadius` whose centre is drawn uniformly from the disk of the
    /// same radius around the point, so that from the file's view the point is anywhere in it.
    package static func random<Generator: RandomNumberGenerator>(
        around point: Coordinate, radius: Double = defaultRadius,
        using generator: inout Generator
    ) -> SearchArea {
        let distance = radius * Double.random(in: 0..<1, using: &generator).squareRoot()
        let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
        let φ = point.latitude * .pi / 180
        var latitude = point.latitude + distance * cos(bearing) / Coordinate.earthRadius * 180 / .pi
        var longitude = point.longitude + distance * sin(bearing) / (Coordinate.earthRadius * cos(φ)) * 180 / .pi
        latitude = min(89.9, max(-89.9, latitude))
        if longitude > 180 { longitude -= 360 } else if longitude <= -180 { longitude += 360 }
        return SearchArea(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    }

    /// Reads "LAT,LON/RADIUS" with the radius in km or m ("47.37,8.54/2km"), as `--search-area` and a quest's
    /// `search-area:` take it.
    package static func parse(_ text: String) throws(SearchAreaError) -> SearchArea {
        let parts = text.trimmingSpaces().split(separator: "/", omittingEmptySubsequences: false)
        let numbers = parts.first.map { $0.split(separator: ",").map { Double($0.trimmingSpaces()) } } ?? []
        guard parts.count == 2, numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1] else {
            throw SearchAreaError(text, "write LAT,LON/RADIUSkm, such as 38.7139,-9.1334/2km")
        }
        let unit = parts[1].lowercased().trimmingSpaces()
        let (number, scale) =
            unit.hasSuffix("km")
            ? (unit.dropLast(2), 1000.0)
            : unit.hasSuffix("m")
                ? (unit.dropLast(), 1.0)
                : (Substring(unit), 1000.0)
        guard let value = Double(number), value.isFinite else {
            throw SearchAreaError(text, "the radius \"\(parts[1])\" is not a distance; write 2km or 800m")
        }
        let area = SearchArea(center: Coordinate(latitude: latitude, longitude: longitude), radius: value * scale)
        guard area.center.isValid else {
            throw SearchAreaError(text, "the centre is not a place: latitude -90..90, longitude -180..180")
        }
        guard (minimumRadius...maximumRadius).contains(area.radius) else {
            throw SearchAreaError(text, "the radius must be 0.1 to 500 km")
        }
        guard area.isValid else {
            throw SearchAreaError(text, "a search area must stay \(90 - Int(CellGrid.maximumLatitude))° from the poles")
        }
        return area
    }

    /// "38.71390,-9.13340/2 km"
    package var description: String {
        let size = radius >= 1000 ? "\((radius / 1000).compact) km" : "\(Int(radius.rounded())) m"
        return String(printf: "%.5f,%.5f/", latitude, longitude) + size
    }
}

/// A search area that cannot be read, and how to write it.
package struct SearchAreaError: Error, Hashable, Sendable, CustomStringConvertible {
    package var text: String
    package var problem: String

    package init(_ text: String, _ problem: String) {
        self.text = text
        self.problem = problem
    }

    package var description: String { "search area \"\(text)\": \(problem)" }
}
