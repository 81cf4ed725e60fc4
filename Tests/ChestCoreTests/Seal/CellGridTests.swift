import Foundation
import Testing

@testable import ChestCore

/// The helper-data grid of sealed locations (docs/FORMAT.md "Sealed locations"): every point within the radius
/// falls in the target's cell, wherever on Earth, and the target is at its cell's centre.
@Suite struct CellGridTests {
    /// A point `metres` from `center` towards `bearing` (degrees), on the sphere.
    static func destination(_ center: Coordinate, metres: Double, bearing: Double) -> Coordinate {
        let δ = metres / Coordinate.earthRadius
        let θ = bearing * .pi / 180
        let φ1 = center.latitude * .pi / 180
        let λ1 = center.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        var λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        if λ2 > .pi { λ2 -= 2 * .pi } else if λ2 <= -.pi { λ2 += 2 * .pi }
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }

    static let places: [(String, Coordinate)] = [
        ("equator", Coordinate(latitude: 0.0001, longitude: 10)),
        ("on the equator and the meridian", Coordinate(latitude: 0, longitude: 0)),
        ("antimeridian east", Coordinate(latitude: -16.5, longitude: 179.9999)),
        ("antimeridian west", Coordinate(latitude: 65.9, longitude: -179.9998)),
        ("85° north", Coordinate(latitude: 85.0, longitude: 30)),
        ("85° south", Coordinate(latitude: -85.3, longitude: -120.5)),
        ("87.5° north", Coordinate(latitude: 87.5, longitude: 100)),
        ("Paris", Coordinate(latitude: 48.85837, longitude: 2.29448)),
    ]

    @Test(arguments: places, [10.0, 25, 100, 1000])
    func everyPointWithinTheRadiusIsInTheTargetsCell(place: (String, Coordinate), radius: Double) {
        let (_, center) = place
        let grid = CellGrid(center: center, radius: radius)
        #expect(grid.isValid, "\(grid)")
        #expect(grid.width >= 2 * radius)
        let target = grid.cell(of: center)
        // The target sits at its cell's centre: half a width from each edge, within rounding.
        let (x, y) = grid.project(center)
        #expect(abs((x - grid.offsetX) / grid.width - Double(target.x) - 0.5) < 1e-6)
        #expect(abs((y - grid.offsetY) / grid.width - Double(target.y) - 0.5) < 1e-6)
        for bearing in stride(from: 0.0, to: 360, by: 7.5) {
            for fraction in [0.5, 0.9, 0.999] {
                let point = Self.destination(center, metres: radius * fraction, bearing: bearing)
                #expect(point.distance(to: center) <= radius)
                #expect(grid.cell(of: point) == target, "\(place.0) r=\(radius) bearing \(bearing)")
            }
        }
    }

    @Test(arguments: places)
    func aPointTwoWidthsAwayIsInAnotherCell(place: (String, Coordinate)) {
        let grid = CellGrid(center: place.1, radius: 20)
        let target = grid.cell(of: place.1)
        for bearing in [0.0, 90, 180, 270] {
            let far = Self.destination(place.1, metres: grid.width * 1.6, bearing: bearing)
            #expect(grid.cell(of: far) != target, "\(place.0) bearing \(bearing)")
        }
    }

    @Test func theReferenceIsTheNearestWholeDegreeAndTheOffsetIsInsideTheCell() {
        let grid = CellGrid(center: Coordinate(latitude: 47.371, longitude: 179.6), radius: 20)
        #expect(grid.referenceLatitude == 47)
        #expect(grid.referenceLongitude == 180)
        #expect((0..<grid.width).contains(grid.offsetX) && (0..<grid.width).contains(grid.offsetY))
        #expect(CellGrid(center: Coordinate(latitude: 0, longitude: -179.7), radius: 20).referenceLongitude == 180)
    }

    @Test func theSecretStringIsCanonical() {
        #expect(
            SealSecret.secret(cell: Cell(x: -10817, y: 125512), pin: "4821") == "chest-v2|cell=-10817,125512|pin=4821")
        #expect(SealSecret.secret(cell: nil, pin: "000123") == "chest-v2|pin=000123")
        #expect(SealSecret.secret(cell: Cell(x: 0, y: -1), pin: nil) == "chest-v2|cell=0,-1")
        let id = MessageID("0123456789abcdef0123456789abcdef")!
        #expect(SealSecret.contentData(id, page: 2) == "chest-v2|content|0123456789abcdef0123456789abcdef|2")
        #expect(SealSecret.slotData(id, page: 1, set: .b) == "chest-v2|key|0123456789abcdef0123456789abcdef|1|B")
    }

    @Test func costsOverTheCapAreRefused() {
        #expect(SealCost.Level.sensitive.cost.problem == nil)
        #expect(SealCost(passes: 9, memory: 64 << 20).problem?.contains("exceed the reader's cap") == true)
        #expect(SealCost(passes: 2, memory: 2 << 30).problem?.contains("exceed the reader's cap") == true)
        #expect(SealCost(passes: 0, memory: 64 << 20).problem?.contains("minimum") == true)
        #expect(SealCost.encodedHashProblem("$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA") == nil)
        #expect(SealCost.encodedHashProblem("$argon2id$v=19$m=4194304,t=2,p=1$c2FsdA$aGFzaA")?.contains("cap") == true)
        #expect(SealCost.encodedHashProblem("$argon2id$v=19$m=65536,t=99,p=1$c2FsdA$aGFzaA")?.contains("cap") == true)
    }
}
