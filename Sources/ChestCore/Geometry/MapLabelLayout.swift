/// Where a map's labels go, so that none overlaps another, a marker or the legend, and none leaves the picture.
/// Pure: boxes in, boxes out. Each label tries positions around its anchor, nearest first; a label with no free
/// place is left out of the map and listed by the caller instead (`chest map`'s `MapDrawing` numbers it in the key;
/// the board in a browser, `BoardMap`, leaves the name to its leaderboard, the key by colour and rank).
package struct MapLabelLayout: Sendable {
    /// A rectangle in picture coordinates (y down).
    package struct Box: Hashable, Sendable {
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double

        package init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        package var maxX: Double { x + width }
        package var maxY: Double { y + height }

        package func intersects(_ other: Box) -> Bool {
            x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
        }

        package func contains(_ other: Box) -> Bool {
            other.x >= x && other.maxX <= maxX && other.y >= y && other.maxY <= maxY
        }

        /// The point of the box nearest to (px, py), where a leader line meets it.
        package func nearest(to px: Double, _ py: Double) -> (Double, Double) {
            (min(max(px, x), maxX), min(max(py, y), maxY))
        }
    }

    /// A label to place next to the point it names.
    package struct Request: Sendable {
        package var x: Double
        package var y: Double
        package var text: String
        package var fontSize: Double

        package init(x: Double, y: Double, text: String, fontSize: Double) {
            self.x = x
            self.y = y
            self.text = text
            self.fontSize = fontSize
        }
    }

    /// A label placed: its box, where its text goes.
    package struct Placed: Hashable, Sendable {
        /// The request's index.
        package var index: Int
        package var box: Box
        package var text: String
        package var fontSize: Double
        /// The label sits away from its anchor: draw a leader line.
        package var needsLeader: Bool
    }

    /// Where labels may go: the map's frame.
    package var frame: Box
    /// What labels must not cover: the north arrow, markers.
    package var obstacles: [Box] = []

    package init(frame: Box, obstacles: [Box] = []) {
        self.frame = frame
        self.obstacles = obstacles
    }

    /// Gaps tried between an anchor and its label, in pixels, nearest first.
    static let gaps: [Double] = [5, 12, 24, 40, 64, 96, 140]
    /// Labels further away than this get a leader line.
    static let leaderGap = 12.0

    /// Places the labels in order (earlier ones get the better places); returns the placed ones and the indices
    /// of those left out.
    package func place(_ requests: [Request]) -> (placed: [Placed], leftOut: [Int]) {
        var placed: [Placed] = []
        var taken = obstacles
        var leftOut: [Int] = []
        for (index, request) in requests.enumerated() {
            let width = Self.width(of: request.text, fontSize: request.fontSize)
            let height = request.fontSize * 1.3
            let found = Self.candidates(x: request.x, y: request.y, width: width, height: height).first { candidate in
                frame.contains(candidate.box) && !taken.contains { $0.intersects(candidate.box) }
            }
            guard let found else {
                leftOut.append(index)
                continue
            }
            taken.append(found.box)
            placed.append(
                Placed(
                    index: index, box: found.box, text: request.text, fontSize: request.fontSize,
                    needsLeader: found.gap > Self.leaderGap))
        }
        return (placed, leftOut)
    }

    /// The boxes tried around an anchor: right, upper right, above, upper left, left, lower left, below, lower right,
    /// at each gap in turn.
    static func candidates(x: Double, y: Double, width: Double, height: Double) -> [(box: Box, gap: Double)] {
        gaps.flatMap { gap -> [(box: Box, gap: Double)] in
            let diagonal = gap * 0.7
            return [
                (x + gap, y - height / 2), (x + diagonal, y - diagonal - height), (x - width / 2, y - gap - height),
                (x - diagonal - width, y - diagonal - height), (x - gap - width, y - height / 2),
                (x - diagonal - width, y + diagonal), (x - width / 2, y + gap), (x + diagonal, y + diagonal),
            ].map { (Box(x: $0.0, y: $0.1, width: width, height: height), gap) }
        }
    }

    /// A generous estimate of the text's width in a sans-serif face (the renderer's exact metrics are not known
    /// here): wide letters and capitals count more, narrow ones less, anything outside ASCII as wide.
    package static func width(of text: String, fontSize: Double) -> Double {
        let ems = text.unicodeScalars.reduce(0.0) { total, scalar in
            let character = Character(scalar)
            let em: Double
            switch character {
            case "i", "l", "j", "I", ".", ",", ":", ";", "'", "|", "!": em = 0.32
            case " ", "f", "t", "r", "(", ")", "[", "]": em = 0.42
            case "m", "w", "M", "W", "@": em = 0.95
            case _ where character.isUppercase || character.isNumber: em = 0.72
            case _ where scalar.isASCII: em = 0.62
            case _ where scalar.value >= 0x2E80: em = 1.05
            default: em = 0.75
            }
            return total + em
        }
        return (ems * fontSize).rounded(.up) + 4
    }
}
