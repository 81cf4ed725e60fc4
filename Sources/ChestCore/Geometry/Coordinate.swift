/// A point on the WGS84 ellipsoid, in decimal degrees.
package struct Coordinate: Hashable, Sendable, Codable {
    package var latitude: Double
    package var longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius (IUGG), in metres.
    package static let earthRadius = 6_371_008.8

    /// Whether both values are finite and inside [-90, 90] and [-180, 180].
    package var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The great-circle (haversine) distance to `other`, in metres.
    package func distance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * .pi / 180
        let a = sinHalfSquared(Δφ) + cosine(φ1) * cosine(φ2) * sinHalfSquared(Δλ)
        return 2 * Coordinate.earthRadius * arcsine(min(1, a.squareRoot()))
    }

    /// The initial bearing towards `other`, in degrees clockwise from north.
    package func bearing(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let Δλ = (other.longitude - longitude) * .pi / 180
        let y = sine(Δλ) * cosine(φ2)
        let x = cosine(φ1) * sine(φ2) - sine(φ1) * cosine(φ2) * cosine(Δλ)
        let θ = arctangent2(y, x) * 180 / .pi
        return (θ + 360).truncatingRemainder(dividingBy: 360)
    }

    /// This point with both values rounded to `places` decimals (weather requests use 2: about 1 km).
    package func rounded(places: Int) -> Coordinate {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return Coordinate(
            latitude: (latitude * scale).rounded() / scale,
            longitude: (longitude * scale).rounded() / scale)
    }
}

private func sinHalfSquared(_ x: Double) -> Double {
    let s = sine(x / 2)
    return s * s
}
