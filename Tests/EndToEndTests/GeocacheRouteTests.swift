import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// Issue 58, docs/QUEST.md "A course from a route": a walking route from an outdoor app (a GPX route or track with
/// named points) is a course of its named points, in the route's order.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct GeocacheRouteTests {
    static let points = [(47.3769, 8.5417), (47.3780, 8.5430), (47.3795, 8.5446)]

    /// A route as an outdoor app writes it: its name, named points with a description, and shaping points between
    /// them without a name.
    static func route(_ element: String, point: String, to path: String) throws {
        let named = ["Bahnhof", "Lindenhof", "Rathaus"]
        var body: [String] = []
        for (index, (latitude, longitude)) in points.enumerated() {
            body.append(
                "<\(point) lat=\"\(latitude)\" lon=\"\(longitude)\"><ele>410</ele><name>\(named[index])</name>"
                    + "<desc>Stop \(index + 1) of the walk</desc></\(point)>")
            if index < points.count - 1 {
                body.append(
                    "<\(point) lat=\"\(latitude + 0.0005)\" lon=\"\(longitude + 0.0006)\"><ele>411</ele></\(point)>")
            }
        }
        let inner = element == "trk" ? ["<trkseg>"] + body + ["</trkseg>"] : body
        try
            ([
                #"<?xml version="1.0" encoding="UTF-8"?>"#,
                #"<gpx version="1.1" creator="Outdoor app" xmlns="http://www.topografix.com/GPX/1/1">"#,
                "<\(element)><name>Old town walk</name>",
            ] + inner + ["</\(element)>", "</gpx>"]).joined(separator: "\n").write(
                toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aRouteOrTrackWithNamedPointsIsACourseOfThem() throws {
        let world = ChestHarness()
        for (element, point) in [("rte", "rtept"), ("trk", "trkpt")] {
            let path = world.root + "/\(element).gpx"
            try Self.route(element, point: point, to: path)
            let written = try world.chest(["quest", "from", path, "-o", element + ".quest"])
            #expect(written.status == 0 && written.stderr.contains("3 pages in 1 message"), "\(written.stderr)")
            let quest = try String(contentsOfFile: world.root + "/\(element).quest", encoding: .utf8)
            #expect(quest.contains("\ntitle: Old town walk\n"), "\(quest)")
            #expect(
                quest.components(separatedBy: "\npage: ").dropFirst().map { $0.prefix { $0 != "\n" } } == [
                    "Bahnhof", "Lindenhof", "Rathaus",
                ], "\(quest)")
            #expect(
                quest.contains("| Stop 2 of the walk\n") && quest.contains("  lock: location=47.378000,8.543000/30m\n"))
            let walk = world.root + "/walk-\(element).gpx"
            try GeocacheQuestTests.track([(47.3700, 8.5300)] + Self.points, to: walk)
            let walked = try world.chest(["simulate", path, walk])
            #expect(
                walked.status == 0 && walked.stdout.contains("3 of 3 pages opened."),
                "\(walked.stdout)\n\(walked.stderr)")
        }
        // A track of a walk with no named point is no course, and says why.
        try GeocacheQuestTests.track(Self.points, to: world.root + "/plain.gpx")
        let plain = try world.chest(["quest", "from", "plain.gpx"])
        #expect(plain.status == 1 && plain.stderr.contains("9 route or track points have no <name>"), "\(plain.stderr)")
    }
}
