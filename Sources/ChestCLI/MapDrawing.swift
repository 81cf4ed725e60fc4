import ChestCore
import Foundation

/// A map as SVG, without tiles: the track, the targets with their radius, where pages opened, a scale bar and a
/// north arrow, on a local equirectangular projection (exact enough over a few kilometres).
struct MapDrawing {
    struct Circle {
        var center: Coordinate
        var radius: Double
        var label: String
        var open: Bool
    }

    struct Mark {
        var at: Coordinate
        var label: String
    }

    var track: [Coordinate] = []
    var circles: [Circle] = []
    var marks: [Mark] = []
    var title = "chest map"

    static let width = 800.0, height = 600.0, margin = 50.0
    static let trackColour = "#d62728", targetColour = "#1f77b4", openColour = "#2ca02c"

    var svg: String {
        let points = track + circles.flatMap { circle in
            [0.0, 90, 180, 270].map { circle.center.moved(metres: circle.radius, bearing: $0) }
        } + marks.map(\.at)
        guard let first = points.first else { return Self.empty(title) }
        let latitude0 = points.map(\.latitude).reduce(0, +) / Double(points.count)
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let cosine = cos(latitude0 * .pi / 180)
        func metres(_ c: Coordinate) -> (Double, Double) {
            ((c.longitude - first.longitude) * metresPerDegree * cosine, (c.latitude - first.latitude) * metresPerDegree)
        }
        let xy = points.map(metres)
        let minX = xy.map(\.0).min()!, maxX = xy.map(\.0).max()!, minY = xy.map(\.1).min()!, maxY = xy.map(\.1).max()!
        let span = max(maxX - minX, maxY - minY, 50)
        let scale = min(Self.width, Self.height) / span * (1 - 2 * Self.margin / min(Self.width, Self.height))
        let offsetX = (Self.width - (maxX - minX) * scale) / 2, offsetY = (Self.height - (maxY - minY) * scale) / 2
        func screen(_ c: Coordinate) -> (Double, Double) {
            let (x, y) = metres(c)
            return (offsetX + (x - minX) * scale, Self.height - offsetY - (y - minY) * scale)
        }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        var body: [String] = [
            ##"<rect width="100%" height="100%" fill="#ffffff"/>"##,
            ##"<text x="20" y="30" font-family="sans-serif" font-size="18">\##(escape(title))</text>"##,
        ]
        for circle in circles {
            let (x, y) = screen(circle.center)
            let colour = circle.open ? Self.openColour : Self.targetColour
            body.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="\##(f(max(circle.radius * scale, 2)))" fill="\##(colour)" fill-opacity="0.15" stroke="\##(colour)" stroke-width="2"/>"##)
            body.append(##"<text x="\##(f(x + 6))" y="\##(f(y - 6))" font-family="sans-serif" font-size="12" fill="\##(colour)">\##(escape(circle.label))</text>"##)
        }
        if track.count > 1 {
            let path = track.map { let (x, y) = screen($0); return "\(f(x)),\(f(y))" }.joined(separator: " ")
            body.append(##"<polyline points="\##(path)" fill="none" stroke="\##(Self.trackColour)" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>"##)
        }
        for mark in marks {
            let (x, y) = screen(mark.at)
            body.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="6" fill="\##(Self.openColour)" stroke="#000000" stroke-width="1"/>"##)
            body.append(##"<text x="\##(f(x + 9))" y="\##(f(y + 4))" font-family="sans-serif" font-size="12">\##(escape(mark.label))</text>"##)
        }
        body += scaleBar(scale) + northArrow()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))">
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// A bar of a round length (1, 2 or 5 times a power of ten metres) about a fifth of the width.
    private func scaleBar(_ scale: Double) -> [String] {
        let wanted = Self.width / 5 / scale
        let power = pow(10, floor(log10(wanted)))
        let length = [1.0, 2, 5, 10].map { $0 * power }.last { $0 <= wanted } ?? power
        let pixels = length * scale, y = Self.height - 20
        let label = length >= 1000 ? String(format: "%g km", length / 1000) : "\(Int(length)) m"
        return [
            ##"<path d="M 20 \##(y - 6) V \##(y) H \##(20 + pixels) V \##(y - 6)" fill="none" stroke="#000000" stroke-width="2"/>"##,
            ##"<text x="20" y="\##(y - 10)" font-family="sans-serif" font-size="12">\##(label)</text>"##,
        ]
    }

    private func northArrow() -> [String] {
        let x = Self.width - 40
        return [
            ##"<path d="M \##(x) 20 L \##(x + 10) 50 L \##(x) 44 L \##(x - 10) 50 Z" fill="#000000"/>"##,
            ##"<text x="\##(x)" y="66" font-family="sans-serif" font-size="14" text-anchor="middle">N</text>"##,
        ]
    }

    private static func empty(_ title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))">
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="20" y="30" font-family="sans-serif" font-size="18">\(escape(title)): no track and no target yet</text>
        </svg>

        """
    }
}

/// Text for XML.
func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

extension Coordinate {
    /// The point `metres` away toward `bearing` (degrees from north), on the sphere.
    func moved(metres: Double, bearing: Double) -> Coordinate {
        let distance = metres / Coordinate.earthRadius, angle = bearing * .pi / 180
        let lat1 = latitude * .pi / 180, lon1 = longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(distance) + cos(lat1) * sin(distance) * cos(angle))
        let lon2 = lon1 + atan2(sin(angle) * sin(distance) * cos(lat1), cos(distance) - sin(lat1) * sin(lat2))
        return Coordinate(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi)
    }
}
