import ChestCore
import FoundationEssentials
import Glibc

/// A local equirectangular projection (exact enough over a few kilometres) that fits every point into a frame
/// with a margin, north up, one scale for both axes.
struct MapProjection {
    let frame: MapLabelLayout.Box
    /// Pixels per metre.
    let scale: Double
    private let origin: Coordinate
    private let cosine: Double
    private let minX: Double, minY: Double, offsetX: Double, offsetY: Double

    static let metresPerDegree = Coordinate.earthRadius * .pi / 180

    /// nil when there is nothing to fit.
    init?(fitting points: [Coordinate], into frame: MapLabelLayout.Box, margin: Double) {
        guard let first = points.first else { return nil }
        self.frame = frame
        origin = first
        let latitude0 = points.map(\.latitude).reduce(0, +) / Double(points.count)
        cosine = cos(latitude0 * .pi / 180)
        let xy = points.map { Self.metres($0, origin: first, cosine: cos(latitude0 * .pi / 180)) }
        minX = xy.map(\.0).min()!
        minY = xy.map(\.1).min()!
        let spanX = max(xy.map(\.0).max()! - minX, 1)
        let spanY = max(xy.map(\.1).max()! - minY, 1)
        let width = frame.width - 2 * margin
        let height = frame.height - 2 * margin
        // At least 50 m across, so one point alone is not drawn at a silly scale.
        scale = min(width / max(spanX, 50), height / max(spanY, 50))
        offsetX = frame.x + (frame.width - spanX * scale) / 2
        offsetY = frame.y + (frame.height - spanY * scale) / 2
    }

    private static func metres(_ c: Coordinate, origin: Coordinate, cosine: Double) -> (Double, Double) {
        ((c.longitude - origin.longitude) * metresPerDegree * cosine, (c.latitude - origin.latitude) * metresPerDegree)
    }

    /// Picture coordinates (y down) of a point.
    func point(_ c: Coordinate) -> (x: Double, y: Double) {
        let (x, y) = Self.metres(c, origin: origin, cosine: cosine)
        let spanY = frame.height - 2 * (offsetY - frame.y)
        return (offsetX + (x - minX) * scale, offsetY + spanY - (y - minY) * scale)
    }
}
