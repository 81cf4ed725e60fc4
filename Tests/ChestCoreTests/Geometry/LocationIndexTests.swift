import Foundation
import Testing

@testable import ChestCore

private func c(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitude: latitude, longitude: longitude)
}

private let degree = Coordinate.earthRadius * .pi / 180

/// A point `metres` from `center` along `bearing` degrees (small distances: flat approximation).
private func offset(_ center: Coordinate, metres: Double, bearing: Double) -> Coordinate {
    let θ = bearing * .pi / 180
    let north = metres * cos(θ)
    let east = metres * sin(θ)
    var longitude = center.longitude + east / (degree * cos(center.latitude * .pi / 180))
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return c(center.latitude + north / degree, longitude)
}

private func keys(_ index: LocationIndex<Int>, _ point: Coordinate) -> Set<Int> {
    Set(index.containing(point).map(\.circle.key))
}

@Suite struct LocationIndexTests {
    /// One circle, and points at a fraction of its radius in several directions: inside up to 0.99, outside from 1.01.
    static let circles: [(String, Coordinate, Double)] = [
        ("small, mid-cell", c(48.85837, 2.29448), 30),
        ("small, on a cell corner", c(48.86, 2.30), 30),
        ("small, just inside a cell edge", c(48.85999, 2.29001), 50),
        ("crossing cell borders", c(48.855, 2.295), 800),
        ("southern and western hemisphere", c(-33.8568, -70.6483), 400),
        ("on the equator and the prime meridian", c(0, 0), 300),
        ("high latitude 70°N", c(70.0, 25.0), 200),
        ("high latitude 78°N", c(78.2232, 15.6267), 150),
        ("high latitude 85°S", c(-85.0, -120.0), 100),
        ("near the antimeridian, east side, not crossing it", c(10.0, 179.985), 500),
        ("near the antimeridian, west side, not crossing it", c(-10.0, -179.985), 500),
        ("big: 20 km", c(45.0, 6.0), 20_000),
        ("big: 5 km", c(45.0, 6.0), 5_000),
        ("big: 20 km at 70°N", c(70.0, 25.0), 20_000),
    ]

    @Test(arguments: circles)
    func findsPointsInsideAndNotOutside(_ name: String, _ center: Coordinate, _ radius: Double) {
        var index = LocationIndex<Int>()
        index.insert(7, center: center, radius: radius)
        #expect(index.count == 1)
        #expect(keys(index, center) == [7])
        for bearing in stride(from: 0.0, to: 360, by: 30) {
            let inside = offset(center, metres: radius * 0.98, bearing: bearing)
            let outside = offset(center, metres: radius * 1.02, bearing: bearing)
            #expect(keys(index, inside) == [7], "\(name): \(bearing)° inside (\(inside.distance(to: center)) m)")
            #expect(keys(index, outside) == [], "\(name): \(bearing)° outside (\(outside.distance(to: center)) m)")
        }
        let hit = index.containing(offset(center, metres: radius / 2, bearing: 45))
        #expect(hit.count == 1)
        #expect(abs((hit.first?.distance ?? 0) - radius / 2) < radius * 0.01)
        index.remove(7)
        #expect(index.count == 0)
        #expect(keys(index, center) == [])
    }

    @Test func eachCircleGoesToTheGridThatFitsItsSize() {
        typealias Index = LocationIndex<Int>
        #expect(Index.placement(around: c(45, 6), radius: 20_000) == nil)
        #expect(Index.placement(around: c(45, 6), radius: 30)?.degrees == 0.0025)
        #expect(Index.placement(around: c(45, 6), radius: 30)?.block.cells.count ?? 0 <= 4)
        #expect(Index.placement(around: c(45, 6), radius: 600)?.degrees == 0.0025)
        #expect(Index.placement(around: c(45, 6), radius: 1_000)?.degrees == 0.025)
        #expect(Index.placement(around: c(45, 6), radius: 5_000)?.degrees == 0.025)
        // Near a pole even a small circle spans too many columns of the fine grid.
        #expect(Index.placement(around: c(85, 6), radius: 500)?.degrees == 0.025)
        let corner = Index.placement(around: c(48.86, 2.30), radius: 30)?.block.cells
        #expect(
            corner.map(Set.init) == [
                Index.Cell(row: 19543, column: 919), Index.Cell(row: 19543, column: 920),
                Index.Cell(row: 19544, column: 919), Index.Cell(row: 19544, column: 920),
            ])
    }

    /// A fix in a crowd of circles that all stop short of it reads only those filed in its cells, not the crowd.
    @Test func aCrowdOfCirclesNearbyIsNotReadForAFixOutsideThem() {
        var index = LocationIndex<Int>()
        var random = SeededGenerator(seed: 9)
        let walk = c(47.3769, 8.5417)
        for key in 0..<5_000 {
            let radius = Double.random(in: 10...500, using: &random)
            let east = Double.random(in: 600...1_100, using: &random)
            let north = Double.random(in: -400...400, using: &random)
            index.insert(
                key, center: offset(offset(walk, metres: east, bearing: 90), metres: north, bearing: 0), radius: radius)
        }
        #expect(index.containing(walk).isEmpty)
        #expect(index.candidates(of: walk) < 250, "\(index.candidates(of: walk)) of 5,000 circles read")
    }

    @Test func insertReplacesAndRemoveForgets() {
        var index = LocationIndex<Int>()
        index.insert(1, center: c(48.85837, 2.29448), radius: 30)
        index.insert(2, center: c(48.85837, 2.29448), radius: 20_000)
        index.insert(3, center: c(48.85837, 2.29448), radius: 1_000)
        #expect(index.count == 3)
        #expect(keys(index, c(48.85837, 2.29448)) == [1, 2, 3])
        // Key 1 moves to Marseille; key 2 shrinks off the wide list.
        index.insert(1, center: c(43.2965, 5.3698), radius: 30)
        index.insert(2, center: c(48.85837, 2.29448), radius: 10)
        #expect(index.count == 3)
        #expect(keys(index, c(48.85837, 2.29448)) == [2, 3])
        #expect(keys(index, c(43.2965, 5.3698)) == [1])
        #expect(keys(index, offset(c(48.85837, 2.29448), metres: 500, bearing: 0)) == [3])
        index.remove(3)
        index.remove(3)
        index.remove(99)
        #expect(index.count == 2)
        #expect(keys(index, offset(c(48.85837, 2.29448), metres: 500, bearing: 0)) == [])
        index.remove(1)
        index.remove(2)
        #expect(index.count == 0)
        #expect(keys(index, c(48.85837, 2.29448)) == [])
    }

    /// A region of the random test: circles and points drawn around one centre.
    struct Region: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var center: Coordinate
        /// Half-width of the square the centres and points are drawn from, in degrees of latitude.
        var spread: Double
        var seed: UInt64
    }

    static let regions = [
        Region(testDescription: "Paris", center: c(48.8566, 2.3522), spread: 0.05, seed: 1),
        Region(testDescription: "equator", center: c(0.0, 0.0), spread: 0.05, seed: 2),
        Region(testDescription: "Svalbard 78°N", center: c(78.2, 15.6), spread: 0.03, seed: 3),
        Region(testDescription: "Tierra del Fuego 54°S", center: c(-54.8, -68.3), spread: 0.05, seed: 4),
        Region(testDescription: "near the antimeridian", center: c(-17.0, 179.8), spread: 0.05, seed: 5),
        Region(testDescription: "88°N", center: c(88.0, 40.0), spread: 0.02, seed: 6),
    ]

    /// 2,000 random circles (10 m to 3 km, a few up to 25 km) and 500 random points: the index finds exactly what a
    /// scan of every circle finds, before and after removing half of them.
    @Test(arguments: regions)
    func matchesABruteForceScan(_ region: Region) {
        var random = SeededGenerator(seed: region.seed)
        let longitudeScale = 1 / cos(region.center.latitude * .pi / 180)
        func draw() -> Coordinate {
            c(
                region.center.latitude + Double.random(in: -region.spread...region.spread, using: &random),
                region.center.longitude
                    + Double.random(in: -region.spread...region.spread, using: &random) * longitudeScale)
        }
        var index = LocationIndex<Int>()
        var all: [Int: (Coordinate, Double)] = [:]
        for key in 0..<2000 {
            let radius =
                key % 50 == 0
                ? Double.random(in: 3_000...25_000, using: &random)
                : exp(Double.random(in: log(10)...log(3000), using: &random))
            let center = draw()
            index.insert(key, center: center, radius: radius)
            all[key] = (center, radius)
        }
        #expect(index.count == 2000)
        // Points: random ones, and some right next to a circle's centre so that small circles are hit too.
        var points = (0..<400).map { _ in draw() }
        points += (0..<100).map { n in
            let (center, radius) = all[n * 7]!
            return offset(
                center, metres: radius * Double.random(in: 0...1.2, using: &random),
                bearing: Double.random(in: 0..<360, using: &random))
        }
        // Right on the edge, where the flat-earth pre-check must never rule out a circle the haversine keeps.
        points += (0..<200).map { n in
            let (center, radius) = all[n * 9 + 1]!
            return offset(
                center, metres: radius * (n % 2 == 0 ? 0.999_999 : 1.000_001),
                bearing: Double.random(in: 0..<360, using: &random))
        }
        func check(_ circles: [Int: (Coordinate, Double)]) -> Int {
            var hits = 0
            for point in points {
                let expected = Set(circles.filter { point.distance(to: $0.value.0) <= $0.value.1 }.keys)
                let found = index.containing(point)
                #expect(Set(found.map(\.circle.key)) == expected, "\(point)")
                #expect(found.count == expected.count)
                for (circle, distance) in found {
                    #expect(abs(distance - point.distance(to: circle.center)) < 1e-6)
                }
                hits += expected.count
            }
            return hits
        }
        #expect(check(all) > 500, "the random set should produce plenty of hits")
        for key in stride(from: 0, to: 2000, by: 2) {
            index.remove(key)
            all.removeValue(forKey: key)
        }
        #expect(index.count == 1000)
        _ = check(all)
    }
}
