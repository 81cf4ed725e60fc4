import ChestCore
import FoundationEssentials
import Glibc

/// The pieces of a map: markers, labels, direction arrows, the scale bar, the north arrow, the legend and the key.
extension MapDrawing {
    static func startMarker(_ x: Double, _ y: Double) -> String {
        ##"<circle class="start" cx="\##(f(x))" cy="\##(f(y))" r="7" fill="#ffffff" stroke="#000000" stroke-width="3"/>"##
    }

    static func endMarker(_ x: Double, _ y: Double) -> String {
        ##"<rect class="end" x="\##(f(x - 6))" y="\##(f(y - 6))" width="12" height="12" fill="#000000" stroke="#ffffff" stroke-width="1.5"/>"##
    }

    /// A diamond where a page opened.
    static func openingMarker(_ x: Double, _ y: Double) -> String {
        ##"<path class="opened" d="M \##(f(x)) \##(f(y - 7)) L \##(f(x + 7)) \##(f(y)) L \##(f(x)) \##(f(y + 7)) L \##(f(x - 7)) \##(f(y)) Z" fill="\##(markColour)" stroke="#000000" stroke-width="1"/>"##
    }

    /// A label on a white ground (so it reads over the track), with a leader line when it sits away from its point.
    static func labelElements(_ label: MapLabelLayout.Placed, anchor: MapLabelLayout.Request) -> [String] {
        var elements: [String] = []
        if label.needsLeader {
            let (x, y) = label.box.nearest(to: anchor.x, anchor.y)
            elements.append(
                ##"<line x1="\##(f(anchor.x))" y1="\##(f(anchor.y))" x2="\##(f(x))" y2="\##(f(y))" stroke="#666666" stroke-width="1"/>"##
            )
        }
        let box = label.box
        elements.append(
            ##"<rect class="label-box" x="\##(f(box.x))" y="\##(f(box.y))" width="\##(f(box.width))" height="\##(f(box.height))" rx="2" fill="#ffffff" fill-opacity="0.85" stroke="#cccccc" stroke-width="0.5"/>"##
        )
        elements.append(
            ##"<text x="\##(f(box.x + 2))" y="\##(f(box.y + label.fontSize))" font-family="sans-serif" font-size="\##(f(label.fontSize))" fill="\##(textColour)">\##(escape(label.text))</text>"##
        )
        return elements
    }

    /// Chevrons along the track, about every 90 pixels, pointing the way it was walked.
    static func arrows(along points: [(x: Double, y: Double)]) -> [String] {
        var arrows: [String] = []
        var travelled = 0.0
        var next = 45.0
        for (from, to) in zip(points, points.dropFirst()) {
            let dx = to.x - from.x
            let dy = to.y - from.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            while next <= travelled + length {
                let t = (next - travelled) / length
                let angle = atan2(dy, dx) * 180 / .pi
                arrows.append(
                    ##"<path class="direction" d="M -5 -5 L 4 0 L -5 5 L -2 0 Z" transform="translate(\##(f(from.x + t * dx)) \##(f(from.y + t * dy))) rotate(\##(f(angle)))" fill="\##(arrowColour)"/>"##
                )
                next += 90
            }
            travelled += length
        }
        return arrows
    }

    /// The scale bar's place: the frame's lower left corner.
    var scaleBarBox: MapLabelLayout.Box {
        .init(x: Self.frame.x + 8, y: Self.frame.maxY - 36, width: Self.width / 5 + 40, height: 32)
    }

    /// A bar of a round length (1, 2 or 5 times a power of ten metres) about a fifth of the width.
    func scaleBar(_ scale: Double) -> [String] {
        let wanted = Self.width / 5 / scale
        let power = pow(10, floor(log10(wanted)))
        let length = [1.0, 2, 5, 10].map { $0 * power }.last { $0 <= wanted } ?? power
        let pixels = length * scale
        let x = scaleBarBox.x + 8
        let y = scaleBarBox.maxY - 8
        let label = length >= 1000 ? String(printf: "%g km", length / 1000) : "\(Int(length)) m"
        return [
            ##"<path d="M \##(f(x)) \##(f(y - 6)) V \##(f(y)) H \##(f(x + pixels)) V \##(f(y - 6))" fill="none" stroke="#000000" stroke-width="2"/>"##,
            ##"<text x="\##(f(x))" y="\##(f(y - 10))" font-family="sans-serif" font-size="12" fill="\##(Self.textColour)">\##(label)</text>"##,
        ]
    }

    /// The north arrow's place: the frame's upper right corner.
    var northArrowBox: MapLabelLayout.Box { .init(x: Self.frame.maxX - 44, y: Self.frame.y + 4, width: 40, height: 62) }

    func northArrow() -> [String] {
        let x = northArrowBox.x + 20
        let top = northArrowBox.y + 6
        return [
            ##"<path d="M \##(f(x)) \##(f(top)) L \##(f(x + 10)) \##(f(top + 30)) L \##(f(x)) \##(f(top + 24)) L \##(f(x - 10)) \##(f(top + 30)) Z" fill="#000000"/>"##,
            ##"<text x="\##(f(x))" y="\##(f(top + 48))" font-family="sans-serif" font-size="14" text-anchor="middle">N</text>"##,
        ]
    }

    /// Rows under the map: what each mark drawn means (only those drawn), an item that would pass the frame's right
    /// edge starting a new row, so none is clipped. Its height is what the key below it starts after.
    func legend() -> (elements: [String], height: Double) {
        let (frame, legendTop) = (Self.frame, Self.legendTop)
        let (trackColour, arrowColour, targetColour, openColour, textColour) =
            (Self.trackColour, Self.arrowColour, Self.targetColour, Self.openColour, Self.textColour)
        var (x, y) = (frame.x + 4, legendTop + 20)
        var elements: [String] = []
        func item(_ text: String, _ symbol: (Double, Double) -> String) {
            let width = 26 + MapLabelLayout.width(of: text, fontSize: 12)
            if x > frame.x + 4, x + width > frame.x + frame.width - 4 { (x, y) = (frame.x + 4, y + Self.legendLine) }
            elements.append(symbol(x, y))
            elements.append(
                ##"<text x="\##(f(x + 26))" y="\##(f(y + 4))" font-family="sans-serif" font-size="12" fill="\##(textColour)">\##(text)</text>"##
            )
            x += width + 18
        }
        if !track.isEmpty {
            item(
                pieces.count > 1
                    ? "track (chevrons: direction walked; broken where no fix came for over 30 s)"
                    : "track (chevrons: direction walked)"
            ) { x, y in
                ##"<path d="M \##(f(x)) \##(f(y)) H \##(f(x + 20))" stroke="\##(trackColour)" stroke-width="4"/>"##
                    + ##"<path d="M -5 -5 L 4 0 L -5 5 L -2 0 Z" transform="translate(\##(f(x + 10)) \##(f(y)))" fill="\##(arrowColour)"/>"##
            }
            item("start") { Self.startMarker($0 + 10, $1) }
            if track.count > 1 { item("end") { Self.endMarker($0 + 10, $1) } }
        }
        if circles.contains(where: { !$0.open }) {
            item("location lock (radius)") { x, y in
                ##"<circle cx="\##(f(x + 10))" cy="\##(f(y))" r="8" fill="\##(targetColour)" fill-opacity="0.15" stroke="\##(targetColour)" stroke-width="2"/>"##
            }
        }
        if circles.contains(where: \.open) {
            item("its page is open") { x, y in
                ##"<circle cx="\##(f(x + 10))" cy="\##(f(y))" r="8" fill="\##(openColour)" fill-opacity="0.15" stroke="\##(openColour)" stroke-width="2"/>"##
            }
        }
        if !marks.isEmpty { item("where a page opened") { Self.openingMarker($0 + 10, $1) } }
        return (elements, y - legendTop + 20)
    }

    /// Labels that found no room on the map, numbered as on the map, in columns under the legend.
    static func key(_ texts: [String], top: Double) -> (elements: [String], height: Double) {
        guard !texts.isEmpty else { return ([], 0) }
        var lines = texts.prefix(keyLimit).enumerated().map { "\($0.offset + 1) · \($0.element)" }
        if texts.count > keyLimit {
            lines.append("… and \(texts.count - keyLimit) more (chest export lists every target)")
        }
        let columnWidth = (frame.width - 8) / Double(keyColumns)
        let rows = (lines.count + keyColumns - 1) / keyColumns
        var elements = [
            ##"<text x="\##(f(frame.x + 4))" y="\##(f(top + 4))" font-family="sans-serif" font-size="12" font-weight="bold" fill="\##(textColour)">Labels with no room on the map, by number:</text>"##
        ]
        for (index, line) in lines.enumerated() {
            let column = Double(index / rows)
            let row = Double(index % rows)
            let fitted = fitting(line, width: columnWidth - 8)
            elements.append(
                ##"<text x="\##(f(frame.x + 4 + column * columnWidth))" y="\##(f(top + 22 + row * keyLine))" font-family="sans-serif" font-size="12" fill="\##(textColour)">\##(escape(fitted))</text>"##
            )
        }
        return (elements, 28 + Double(rows) * keyLine)
    }

    /// The text cut with an ellipsis until its estimated width fits.
    static func fitting(_ text: String, width: Double) -> String {
        var text = text
        while text.count > 2, MapLabelLayout.width(of: text, fontSize: 12) > width {
            text = String(text.dropLast(2)) + "…"
        }
        return text
    }
}
