import ChestCore
import FoundationEssentials
import Glibc

/// A map as SVG, without tiles: the track with its start, end and direction, the targets with their radius and
/// name, where pages opened, a scale bar, a north arrow and a legend. Labels are laid out by `MapLabelLayout` so
/// that none overlaps another or leaves the picture; those that find no place are numbered and listed in a key
/// under the legend.
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
    /// When each point of the track was recorded (empty: one unbroken line). A gap longer than `gap` (a lost fix,
    /// gpsd gone) breaks the line: nothing is drawn across it, no chevron claims a direction over it.
    var times: [Date] = []
    static let gap = 30.0
    /// Said next to the track's ends ("start 09:00", "end 10:12").
    var startLabel = "start"
    var endLabel = "end"
    var circles: [Circle] = []
    var marks: [Mark] = []
    var title = "chest map"

    static let width = 1000.0
    static let frame = MapLabelLayout.Box(x: 16, y: 44, width: 968, height: 560)
    static let legendTop = 614.0, legendLine = 22.0, keyLine = 16.0, keyColumns = 3, keyLimit = 60
    static let trackColour = "#d62728", arrowColour = "#7a0f10", targetColour = "#1f77b4", openColour = "#2ca02c",
        markColour = "#ff7f0e", textColour = "#222222"
    static let labelSize = 12.0
    /// Labels longer than this are cut with an ellipsis.
    static let labelLength = 48

    var svg: String {
        let points =
            track
            + circles.flatMap { circle in
                [0.0, 90, 180, 270].map { circle.center.moved(metres: circle.radius, bearing: $0) }
            } + marks.map(\.at)
        guard let projection = MapProjection(fitting: points, into: Self.frame, margin: 48) else {
            return Self.empty(title)
        }
        var body: [String] = [
            ##"<rect width="100%" height="100%" fill="#ffffff"/>"##,
            ##"<rect x="\##(f(Self.frame.x))" y="\##(f(Self.frame.y))" width="\##(f(Self.frame.width))" height="\##(f(Self.frame.height))" fill="#fbfaf6" stroke="#999999"/>"##,
            ##"<text x="16" y="30" font-family="sans-serif" font-size="18" fill="\##(Self.textColour)">\##(escape(title))</text>"##,
        ]
        var obstacles = [northArrowBox, scaleBarBox]
        var requests: [MapLabelLayout.Request] = []
        func request(_ x: Double, _ y: Double, _ text: String) {
            let cut = text.count > Self.labelLength ? String(text.prefix(Self.labelLength - 1)) + "…" : text
            requests.append(MapLabelLayout.Request(x: x, y: y, text: cut, fontSize: Self.labelSize))
        }
        for circle in circles {
            let (x, y) = projection.point(circle.center)
            let colour = circle.open ? Self.openColour : Self.targetColour
            body.append(
                ##"<circle cx="\##(f(x))" cy="\##(f(y))" r="\##(f(max(circle.radius * projection.scale, 3)))" fill="\##(colour)" fill-opacity="0.15" stroke="\##(colour)" stroke-width="2"/>"##
            )
            body.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="3" fill="\##(colour)"/>"##)
            obstacles.append(.init(x: x - 4, y: y - 4, width: 8, height: 8))
        }
        let screen = track.map(projection.point)
        for piece in pieces.map({ $0.map { screen[$0] } }) where piece.count > 1 {
            let path = piece.map { "\(f($0.x)),\(f($0.y))" }.joined(separator: " ")
            body.append(
                ##"<polyline points="\##(path)" fill="none" stroke="\##(Self.trackColour)" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>"##
            )
            body += Self.arrows(along: piece)
        }
        if let start = screen.first, let end = screen.last {
            body.append(Self.startMarker(start.x, start.y))
            obstacles.append(.init(x: start.x - 8, y: start.y - 8, width: 16, height: 16))
            if screen.count > 1 {
                body.append(Self.endMarker(end.x, end.y))
                obstacles.append(.init(x: end.x - 7, y: end.y - 7, width: 14, height: 14))
            }
        }
        for mark in marks {
            let (x, y) = projection.point(mark.at)
            body.append(Self.openingMarker(x, y))
            obstacles.append(.init(x: x - 7, y: y - 7, width: 14, height: 14))
        }
        // Ends of the track first: they orient the reader; then targets, then openings.
        if let start = screen.first { request(start.x, start.y, startLabel) }
        if screen.count > 1, let end = screen.last { request(end.x, end.y, endLabel) }
        for circle in circles {
            let (x, y) = projection.point(circle.center)
            request(x, y, circle.label)
        }
        for mark in marks {
            let (x, y) = projection.point(mark.at)
            request(x, y, mark.label)
        }

        let layout = MapLabelLayout(frame: Self.frame.inset(2), obstacles: obstacles)
        let (placed, leftOut) = layout.place(requests)
        // A label with no room is numbered on the map, where a number fits, and written out in the key.
        let numbers = MapLabelLayout(frame: Self.frame.inset(2), obstacles: obstacles + placed.map(\.box))
            .place(
                leftOut.enumerated().map { number, index in
                    MapLabelLayout.Request(
                        x: requests[index].x, y: requests[index].y, text: "\(number + 1)", fontSize: 11)
                }
            ).placed
        let labels =
            placed.flatMap { Self.labelElements($0, anchor: requests[$0.index]) }
            + numbers.flatMap { Self.labelElements($0, anchor: requests[leftOut[$0.index]]) }
        // Every leader line under every label, so that no line crosses a label's text.
        body += labels.filter { $0.hasPrefix("<line") } + labels.filter { !$0.hasPrefix("<line") }
        let legend = legend()
        body += scaleBar(projection.scale) + northArrow() + legend.elements
        let key = Self.key(leftOut.map { requests[$0].text }, top: Self.legendTop + legend.height)
        body += key.elements
        let height = Self.legendTop + legend.height + key.height
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" viewBox="0 0 \(Int(Self.width)) \(Int(height))">
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// The track's runs without a gap, as indices into it.
    var pieces: [[Int]] {
        guard !track.isEmpty else { return [] }
        var pieces: [[Int]] = [[0]]
        for index in track.indices.dropFirst() {
            if times.count == track.count, times[index].timeIntervalSince(times[index - 1]) > Self.gap {
                pieces.append([])
            }
            pieces[pieces.count - 1].append(index)
        }
        return pieces
    }

    /// "Old town walk: start at the… p2 opened 09:12": the title is shortened so the page and the time always show.
    static func openingLabel(title: String, page: Int, time: String) -> String {
        let facts = " p\(page) opened \(time)"
        let room = max(labelLength - facts.count, 4)
        return (title.count > room ? String(title.prefix(room - 1)) + "…" : title) + facts
    }

    private static func empty(_ title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="200" viewBox="0 0 \(Int(width)) 200">
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="20" y="30" font-family="sans-serif" font-size="18">\(escape(title)): no track and no target yet</text>
        </svg>

        """
    }
}

/// A number as SVG writes it.
func f(_ value: Double) -> String { String(printf: "%.1f", value) }

/// Text for XML.
func escape(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
        .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
}

extension MapLabelLayout.Box {
    /// The box shrunk by `amount` on every side.
    func inset(_ amount: Double) -> Self {
        .init(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

extension Coordinate {
    /// The point `metres` away toward `bearing` (degrees from north), on the sphere.
    func moved(metres: Double, bearing: Double) -> Coordinate {
        let distance = metres / Coordinate.earthRadius
        let angle = bearing * .pi / 180
        let lat1 = latitude * .pi / 180
        let lon1 = longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(distance) + cos(lat1) * sin(distance) * cos(angle))
        let lon2 = lon1 + atan2(sin(angle) * sin(distance) * cos(lat1), cos(distance) - sin(lat1) * sin(lat2))
        return Coordinate(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi)
    }
}
