import ChestCore
import ChestGPX
import ChestSimulator
import Foundation
import Testing

/// GPX read and written with FoundationXML, tracks in their three forms, and `start now`.
@Suite struct GPXTrackTests {
    static let description = """
        start 2026-06-01T09:00:00Z
        47.376900 8.541700 410 hold 2
        47.377000 8.541800 415 nofix
        47.377282 8.542263 434
        """

    @Test func aWalkWrittenAsGPXReadsBackAsTheSameTrack() throws {
        let walk = try NMEAWalk(description: Self.description)
        let xml = walk.gpx.xml(creator: "test", trackName: "a <walk> & more")
        let gpx = try GPX(data: Data(xml.utf8))
        #expect(gpx.waypoints.map(\.name) == ["1", "2", "3"])
        #expect(gpx.waypoints.map(\.line) == [3, 7, 11])
        #expect(gpx.waypoint(named: "2")?.elevation == 415)
        let withFix = walk.epochs().filter(\.hasFix)
        #expect(gpx.track.count == withFix.count && gpx.track.count < walk.epochs().count)
        #expect(gpx.track.map(\.time) == withFix.map(\.time))
        for (point, epoch) in zip(gpx.track, withFix) {
            #expect(point.coordinate.distance(to: epoch.coordinate) < 0.05)
        }
        #expect(xml.contains("<name>a &lt;walk&gt; &amp; more</name>"))
    }

    @Test func theThreeFormsOfATrackAgree() throws {
        let walk = try NMEAWalk(description: Self.description)
        let fromWalk = try Track(data: Data(Self.description.utf8))
        let fromNMEA = try Track(data: Data(walk.log(comment: "test").utf8))
        let fromGPX = try Track(data: Data(walk.gpx.xml().utf8))
        #expect(fromWalk.points.count == walk.epochs().count)
        #expect(fromNMEA.points.map(\.time) == fromWalk.points.map(\.time))
        #expect(fromNMEA.points.map { $0.coordinate == nil } == fromWalk.points.map { $0.coordinate == nil })
        for (nmea, described) in zip(fromNMEA.points, fromWalk.points) {
            if let a = nmea.coordinate, let b = described.coordinate { #expect(a.distance(to: b) < 0.05) }
            #expect(abs((nmea.altitudeMSL ?? 0) - (described.altitudeMSL ?? 0)) < 0.05)
        }
        #expect(fromGPX.points.map(\.time) == fromWalk.points.filter { $0.coordinate != nil }.map(\.time))
    }

    @Test func faultsNameTheLine() {
        #expect(
            throws: GPX.ParseError(line: 2, reason: "<wpt> needs lat (-90..90) and lon (-180..180) in decimal degrees")
        ) {
            try GPX(data: Data("<gpx>\n<wpt lat=\"1\"/>\n</gpx>".utf8))
        }
        #expect(throws: GPX.ParseError(line: 3, reason: "<ele>high</ele> is not a number")) {
            try GPX(
                data: Data(
                    "<gpx>\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<ele>high</ele></trkpt></trkseg></trk></gpx>".utf8
                ))
        }
        #expect(throws: GPX.ParseError(line: 1, reason: "not a GPX file (no <gpx> element)")) {
            try GPX(data: Data("<kml/>".utf8))
        }
        #expect(throws: Track.ReadError.self) { try Track(data: Data("<gpx></gpx>".utf8)) }
        #expect(throws: Track.ReadError.self) { try Track(data: Data("hello world".utf8)) }
    }

    @Test func startNowIsWhenTheDescriptionIsRead() throws {
        let now = Date(timeIntervalSince1970: 1_900_000_000.7)
        let walk = try NMEAWalk(description: "start now\n47.3769 8.5417 410\n", now: now)
        #expect(walk.start == Date(timeIntervalSince1970: 1_900_000_000))
        #expect(throws: NMEAWalk.DescriptionError.self) {
            try NMEAWalk(description: "start later\n47.3769 8.5417 410\n")
        }
    }
}
