import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestCLI

/// Issue 25: the map's labels never overlap each other or leave the picture, on a crowded map with targets at
/// its edges; the SVG is valid (xmllint) and renders (rsvg-convert).
@Suite struct MapLayoutTests {
    static let se = Coordinate(latitude: 38.7098, longitude: -9.1330)

    /// 40 targets within about 60 m of each other, four far apart at the corners, long and non-ASCII names, a
    /// track through them and openings on it.
    static var crowded: MapDrawing {
        var drawing = MapDrawing()
        drawing.title = "crowded"
        for index in 0..<40 {
            let center = se.moved(metres: Double(index % 7) * 9, bearing: Double(index) * 37)
            drawing.circles.append(
                .init(
                    center: center, radius: 10 + Double(index % 3) * 5,
                    label: index % 5 == 0 ? "Miradouro de Santa Luzia, the long way round \(index)" : "Sé \(index)",
                    open: index % 2 == 0))
        }
        for (index, bearing) in [45.0, 135, 225, 315].enumerated() {
            drawing.circles.append(
                .init(
                    center: se.moved(metres: 900, bearing: bearing), radius: 30,
                    label: "Edge \(index) with a rather long name", open: false))
        }
        drawing.track = (0...60).map { se.moved(metres: Double($0) * 15, bearing: 45 + Double($0) * 3) }
        drawing.startLabel = "start 09:00"
        drawing.endLabel = "end 10:12"
        drawing.marks = [
            .init(at: drawing.track[10], label: "Lisbon p2 opened 09:12"),
            .init(at: drawing.track[11], label: "Lisbon p3 opened 09:13"),
        ]
        return drawing
    }

    /// The label boxes of an SVG the way a test reads them: every `rect class="label-box"`.
    static func labelBoxes(_ svg: String) -> [MapLabelLayout.Box] {
        let pattern = #"<rect class="label-box" x="([-0-9.]+)" y="([-0-9.]+)" width="([0-9.]+)" height="([0-9.]+)""#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
            let value = { (i: Int) in Double(svg[Range(match.range(at: i), in: svg)!])! }
            return .init(x: value(1), y: value(2), width: value(3), height: value(4))
        }
    }

    static func viewBox(_ svg: String) -> MapLabelLayout.Box? {
        guard let range = svg.range(of: #"viewBox="0 0 ([0-9]+) ([0-9]+)""#, options: .regularExpression) else {
            return nil
        }
        let numbers = svg[range].dropFirst(9).dropLast().split(separator: " ").compactMap { Double($0) }
        return .init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    @Test func crowdedLabelsNeitherOverlapNorLeaveThePicture() throws {
        let svg = Self.crowded.svg
        let boxes = Self.labelBoxes(svg)
        let view = try #require(Self.viewBox(svg))
        #expect(boxes.count >= 20, "most labels are on the map")
        for (index, box) in boxes.enumerated() {
            #expect(view.contains(box), "label \(index) at \(box) leaves the picture \(view)")
            for other in boxes[(index + 1)...] { #expect(!box.intersects(other), "\(box) overlaps \(other)") }
        }
        // Every label is somewhere: on the map, or numbered in the key under the legend.
        let key = svg.components(separatedBy: "Labels with no room on the map").count - 1
        #expect(boxes.count == 2 + 44 + 2 || key == 1)
        for name in ["Edge 0 with a rather long name", "start 09:00", "end 10:12"] { #expect(svg.contains(name)) }
        #expect(svg.contains(#"class="start""#) && svg.contains(#"class="end""#) && svg.contains(#"class="direction""#))
        #expect(svg.contains(">N</text>") && svg.contains(" m</text>") && svg.contains("where a page opened"))

        let file = NSTemporaryDirectory() + "/chest-map-\(getpid())"
        try svg.write(toFile: file + ".svg", atomically: true, encoding: .utf8)
        defer { for ext in [".svg", ".png"] { try? FileManager.default.removeItem(atPath: file + ext) } }
        let env = ProcessInfo.processInfo.environment
        let lint = try Subprocess.run("/usr/bin/xmllint", ["--noout", file + ".svg"], environment: env)
        #expect(lint.status == 0, "\(lint.stderr)")
        let png = try Subprocess.run("/usr/bin/rsvg-convert", ["-o", file + ".png", file + ".svg"], environment: env)
        #expect(png.status == 0, "\(png.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file + ".png")).starts(with: [0x89, 0x50, 0x4e, 0x47]))
        if let keep = env["CHEST_KEEP_MAP"] { try? FileManager.default.copyItem(atPath: file + ".png", toPath: keep) }
    }

    @Test func aLabelWithNoRoomIsLeftOutNotOverlapped() {
        let layout = MapLabelLayout(frame: .init(x: 0, y: 0, width: 120, height: 40))
        let requests = (0..<6).map { MapLabelLayout.Request(x: 60, y: 20, text: "label \($0)", fontSize: 12) }
        let (placed, leftOut) = layout.place(requests)
        #expect(!placed.isEmpty && !leftOut.isEmpty && placed.count + leftOut.count == 6)
        for (index, label) in placed.enumerated() {
            #expect(layout.frame.contains(label.box))
            for other in placed[(index + 1)...] { #expect(!label.box.intersects(other.box)) }
        }
    }

    @Test func aLabelAvoidsObstaclesAndStaysInsideAtTheEdge() {
        let arrow = MapLabelLayout.Box(x: 90, y: 0, width: 30, height: 30)
        let layout = MapLabelLayout(frame: .init(x: 0, y: 0, width: 120, height: 120), obstacles: [arrow])
        let (placed, _) = layout.place([MapLabelLayout.Request(x: 118, y: 2, text: "corner", fontSize: 12)])
        let box = placed.first?.box
        #expect(box.map { layout.frame.contains($0) && !$0.intersects(arrow) } == true, "\(String(describing: box))")
    }

    /// Issue 32: an opening says its page and time whatever its title's length, and two walks with a gap between
    /// them (a lost fix, gpsd gone) are two lines, with no chevron over the gap.
    @Test func openingsKeepTheirFactsAndTheTrackBreaksAtGaps() throws {
        let long = "Old town walk: start at the tower, then the hidden courtyard, the well"
        let label = MapDrawing.openingLabel(title: long, page: 3, time: "09:12:05")
        #expect(label.hasSuffix("… p3 opened 09:12:05") && label.count <= MapDrawing.labelLength, "\(label)")
        #expect(MapDrawing.openingLabel(title: "Gift", page: 1, time: "09:00:00") == "Gift p1 opened 09:00:00")

        var drawing = MapDrawing()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // 40 s of walking east, 150 s with no fix, then 40 s walking east again 400 m further on.
        let first = (0..<40).map { Self.se.moved(metres: Double($0) * 1.4, bearing: 90) }
        let second = (0..<40).map { Self.se.moved(metres: 400 + Double($0) * 1.4, bearing: 90) }
        drawing.track = first + second
        drawing.times = (0..<40).map { start + Double($0) } + (0..<40).map { start + 190 + Double($0) }
        drawing.marks = [.init(at: first[20], label: label)]
        let svg = drawing.svg
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2, "two walks, two lines")
        #expect(svg.contains("broken where no fix came for over 30 s"))
        #expect(svg.contains("p3 opened 09:12:05"))
        // Every chevron sits on one of the two lines, none in the gap between them.
        let lines = try NSRegularExpression(pattern: #"<polyline points="([^"]+)""#)
            .matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
                String(svg[Range(match.range(at: 1), in: svg)!]).split(separator: " ").map { pair in
                    pair.split(separator: ",").map { Double($0)! }
                }
            }
        let xs = lines.map { line in (line.map { $0[0] }.min()!, line.map { $0[0] }.max()!) }
        let chevrons = try NSRegularExpression(
            pattern: #"class="direction" d="[^"]+" transform="translate\(([-0-9.]+) "#
        )
        .matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map {
            Double(svg[Range($0.range(at: 1), in: svg)!])!
        }
        #expect(!chevrons.isEmpty)
        for x in chevrons {
            #expect(xs.contains { x >= $0.0 - 1 && x <= $0.1 + 1 }, "a chevron at x \(x) outside both walks \(xs)")
        }
        // Without times the same points are one line, as before.
        drawing.times = []
        #expect(drawing.svg.components(separatedBy: "<polyline").count - 1 == 1)
    }

    /// Issue 47: with every mark drawn (a broken track, open and closed targets, an opening), the legend's items wrap
    /// onto a second row rather than run past the frame ("where a page opene"), and the key starts below them.
    @Test func theLegendWrapsInsideTheFrame() throws {
        var drawing = MapDrawing()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        drawing.track =
            (0..<40).map { Self.se.moved(metres: Double($0) * 1.4, bearing: 90) }
            + (0..<40).map { Self.se.moved(metres: 400 + Double($0) * 1.4, bearing: 90) }
        drawing.times = (0..<40).map { start + Double($0) } + (0..<40).map { start + 190 + Double($0) }
        drawing.circles = [
            .init(center: Self.se, radius: 30, label: "closed", open: false),
            .init(center: Self.se.moved(metres: 400, bearing: 90), radius: 30, label: "open", open: true),
        ]
        drawing.marks = [.init(at: Self.se, label: "Gift p1 opened 09:00:00")]
        let svg = drawing.svg
        let legend = try NSRegularExpression(pattern: #"<text x="([0-9.]+)" y="([0-9.]+)"[^>]*>([^<]+)</text>"#)
            .matches(in: svg, range: NSRange(svg.startIndex..., in: svg))
            .map {
                (
                    x: Double(svg[Range($0.range(at: 1), in: svg)!])!,
                    y: Double(svg[Range($0.range(at: 2), in: svg)!])!,
                    text: String(svg[Range($0.range(at: 3), in: svg)!])
                )
            }
            .filter { $0.y > MapDrawing.legendTop }
        let texts = Set(legend.map(\.text))
        for expected in ["start", "end", "location lock (radius)", "its page is open", "where a page opened"] {
            #expect(texts.contains(expected), "\(expected) is missing from the legend")
        }
        let right = MapDrawing.frame.x + MapDrawing.frame.width
        for item in legend {
            #expect(
                item.x + MapLabelLayout.width(of: item.text, fontSize: 12) <= right, "\(item.text) runs past the frame")
        }
        #expect(Set(legend.map(\.y)).count == 2, "two rows: \(legend.map(\.y))")
        let height = try #require(svg.firstMatch(of: /height="([0-9]+)" viewBox/).map { Double($0.1)! })
        #expect(height >= legend.map(\.y).max()! + 8, "the picture ends below the legend")
    }
}
