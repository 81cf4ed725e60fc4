import Foundation
import Testing

@testable import ChestCore

private func c(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitude: latitude, longitude: longitude)
}

@Suite struct CoordinateTests {
    static let degree = Coordinate.earthRadius * .pi / 180

    /// (from, to, metres, relative tolerance)
    static let distances: [(String, Coordinate, Coordinate, Double, Double)] = [
        ("Paris–London", c(48.8566, 2.3522), c(51.5074, -0.1278), 343_500, 0.005),
        ("New York–Los Angeles", c(40.7128, -74.0060), c(34.0522, -118.2437), 3_936_000, 0.005),
        ("Sydney–Auckland", c(-33.8688, 151.2093), c(-36.8485, 174.7633), 2_156_000, 0.005),
        ("same point", c(48.85837, 2.29448), c(48.85837, 2.29448), 0, 0),
        ("one degree of longitude on the equator", c(0, 10), c(0, 11), degree, 1e-9),
        ("one degree of latitude", c(45, 7), c(46, 7), degree, 1e-9),
        ("across the antimeridian", c(0, 179.5), c(0, -179.5), degree, 1e-9),
        ("antipodes", c(0, 0), c(0, 180), .pi * Coordinate.earthRadius, 1e-9),
        ("pole to pole", c(90, 0), c(-90, 0), .pi * Coordinate.earthRadius, 1e-9),
        ("one degree of longitude at 60°N", c(60, 0), c(60, 1), 55_597, 0.001),
        ("30 m north of the Eiffel Tower", c(48.85837, 2.29448), c(48.85837 + 30 / degree, 2.29448), 30, 1e-6),
    ]

    @Test(arguments: distances)
    func haversine(_ name: String, _ a: Coordinate, _ b: Coordinate, _ metres: Double, _ tolerance: Double) {
        let there = a.distance(to: b)
        let back = b.distance(to: a)
        #expect(abs(there - metres) <= max(1e-6, metres * tolerance), "\(name): \(there)")
        #expect(abs(there - back) < 1e-6)
    }

    /// (from, to, degrees clockwise from north, tolerance)
    static let bearings: [(Coordinate, Coordinate, Double, Double)] = [
        (c(0, 0), c(1, 0), 0, 1e-9),
        (c(0, 0), c(0, 1), 90, 1e-9),
        (c(0, 0), c(-1, 0), 180, 1e-9),
        (c(0, 0), c(0, -1), 270, 1e-9),
        (c(0, 0), c(1, 1), 45, 0.01),
        (c(0, 179.5), c(0, -179.5), 90, 1e-9),
        (c(48.8566, 2.3522), c(51.5074, -0.1278), 330.0, 0.5),
        (c(51.5074, -0.1278), c(48.8566, 2.3522), 148.1, 0.5),
        (c(40.7128, -74.0060), c(34.0522, -118.2437), 273.7, 0.5),
    ]

    @Test(arguments: bearings)
    func bearing(_ a: Coordinate, _ b: Coordinate, _ degrees: Double, _ tolerance: Double) {
        let bearing = a.bearing(to: b)
        #expect(bearing >= 0 && bearing < 360)
        #expect(abs(bearing - degrees) <= tolerance, "\(bearing)")
    }

    static let roundings: [(Coordinate, Int, Coordinate)] = [
        (c(48.85837, 2.29448), 2, c(48.86, 2.29)),
        (c(51.5074, -0.1278), 2, c(51.51, -0.13)),
        (c(-33.8688, 151.2093), 2, c(-33.87, 151.21)),
        (c(-0.004, 0.004), 2, c(-0.0, 0.0)),
        (c(12.3456, -98.7654), 0, c(12, -99)),
        (c(12.3456, -98.7654), 1, c(12.3, -98.8)),
        (c(12.34567, -98.76543), 4, c(12.3457, -98.7654)),
    ]

    @Test(arguments: roundings)
    func rounding(_ point: Coordinate, _ places: Int, _ expected: Coordinate) {
        let rounded = point.rounded(places: places)
        #expect(abs(rounded.latitude - expected.latitude) < 1e-12)
        #expect(abs(rounded.longitude - expected.longitude) < 1e-12)
    }

    static let validities: [(Coordinate, Bool)] = [
        (c(0, 0), true), (c(90, 180), true), (c(-90, -180), true), (c(90.0001, 0), false),
        (c(0, -180.0001), false), (c(.nan, 0), false), (c(0, .infinity), false),
    ]

    @Test(arguments: validities)
    func validity(_ point: Coordinate, _ valid: Bool) {
        #expect(point.isValid == valid)
    }
}
