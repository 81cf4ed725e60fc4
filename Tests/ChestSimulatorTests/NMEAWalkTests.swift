import ChestCore
import ChestSimulator
import Foundation
import Testing

@Suite struct NMEAWalkTests {
    let start = Date(timeIntervalSince1970: 1_780_304_400)  // 2026-06-01T09:00:00Z

    @Test func checksumMatchesKnownSentences() {
        // Reference sentences from the NMEA 0183 literature.
        #expect(
            NMEA.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                == "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        #expect(
            NMEA.sentence("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
                == "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A")
        #expect(NMEA.isValid("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n"))
        #expect(!NMEA.isValid("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*38"))
        #expect(!NMEA.isValid("GPGSA,A,3*39"))
    }

    @Test func coordinatesAreDegreesAndMinutes() {
        #expect(NMEA.latitude(47.3769) == ("4722.61400", "N"))
        #expect(NMEA.longitude(8.5417) == ("00832.50200", "E"))
        #expect(NMEA.latitude(-27.21091) == ("2712.65460", "S"))
        #expect(NMEA.longitude(-121.3144) == ("12118.86400", "W"))
        // 59.9999994 minutes must carry into the degrees, never print as 60 minutes.
        #expect(NMEA.latitude(47.99999999) == ("4800.00000", "N"))
        #expect(NMEA.fixed(2.5, places: 1) == "2.5")
        #expect(NMEA.fixed(-0.04, places: 1) == "0.0")
        #expect(NMEA.fixed(410, places: 1) == "410.0")
        #expect(NMEA.fixed(-6.25, places: 2) == "-6.25")
    }

    @Test func fixEpochWritesRMCGGAGSAAndGSV() throws {
        let walk = NMEAWalk(
            waypoints: [.init(Coordinate(latitude: 47.3769, longitude: 8.5417), altitudeMSL: 410)],
            start: start)
        let epochs = walk.epochs()
        try #require(epochs.count == 1)
        let lines = NMEAWalk.sentences(for: epochs[0])
        #expect(lines.map { String($0.prefix(6)) } == ["$GPRMC", "$GPGGA", "$GPGSA", "$GPGSV", "$GPGSV"])
        #expect(lines.allSatisfy { NMEA.isValid($0) })
        #expect(lines[0] == "$GPRMC,090000.00,A,4722.61400,N,00832.50200,E,0.00,0.0,010626,,,A*6A")
        #expect(lines[1] == "$GPGGA,090000.00,4722.61400,N,00832.50200,E,1,07,0.9,410.0,M,47.4,M,,*67")
        #expect(lines[2] == "$GPGSA,A,3,02,05,09,12,15,18,21,,,,,,1.6,0.9,1.3*3D")
        #expect(fields(lines[0]).count == 13)
        #expect(fields(lines[1]).count == 15)
        #expect(fields(lines[2]).count == 18)
        #expect(fields(lines[3]).count == 20)
    }

    @Test func noFixEpochHasStatusVAndQualityZero() {
        let walk = NMEAWalk(
            waypoints: [
                .init(
                    Coordinate(latitude: 47.3769, longitude: 8.5417), altitudeMSL: 410,
                    noFix: true)
            ], start: start)
        let lines = NMEAWalk.sentences(for: walk.epochs()[0])
        #expect(lines.allSatisfy { NMEA.isValid($0) })
        #expect(fields(lines[0])[2] == "V")
        #expect(fields(lines[0])[3] == "")
        #expect(fields(lines[1])[6] == "0")
        #expect(fields(lines[2])[2] == "1")
        #expect(fields(lines[0]).count == 13)
        #expect(fields(lines[1]).count == 15)
        #expect(fields(lines[2]).count == 18)
    }

    @Test func walksAtTheGivenSpeedAndInterpolates() {
        let a = Coordinate(latitude: 47.3769, longitude: 8.5417)
        let b = Coordinate(latitude: 47.377854, longitude: 8.543109)
        let walk = NMEAWalk(
            waypoints: [.init(a, altitudeMSL: 410, hold: 2), .init(b, altitudeMSL: 470, hold: 3)],
            start: start, speed: 2)
        let epochs = walk.epochs()
        let legSteps = Int((a.distance(to: b) / 2).rounded(.up))
        #expect(epochs.count == 1 + 2 + legSteps + 3)
        #expect(epochs.map(\.time) == (0..<epochs.count).map { start.addingTimeInterval(Double($0)) })
        #expect(epochs.first?.coordinate == a)
        #expect(epochs.last?.coordinate == b)
        #expect(epochs.last?.altitudeMSL == 470)
        for (earlier, later) in zip(epochs, epochs.dropFirst()) {
            #expect(earlier.coordinate.distance(to: later.coordinate) <= 2.0001)
            #expect(later.altitudeMSL >= earlier.altitudeMSL)
        }
        let middle = epochs[3 + legSteps / 2]
        #expect(abs(middle.coordinate.distance(to: a) - a.distance(to: b) / 2) < 2)
        #expect(abs(middle.course - 45) < 1)
    }

    @Test func noFixStretchCoversTheLegAndHold() {
        let a = Coordinate(latitude: 47.3769, longitude: 8.5417)
        let b = Coordinate(latitude: 47.37708, longitude: 8.5417)  // 20 m north
        let walk = NMEAWalk(
            waypoints: [.init(a, altitudeMSL: 410), .init(b, altitudeMSL: 412, noFix: true, hold: 4)],
            start: start, speed: 2)
        let epochs = walk.epochs()
        let legSteps = Int((a.distance(to: b) / 2).rounded(.up))
        #expect(epochs.first?.hasFix == true)
        #expect(epochs.dropFirst().allSatisfy { !$0.hasFix })
        #expect(epochs.count == 1 + legSteps + 4)
    }

    @Test func logEndsEveryLineWithCRLF() {
        let walk = NMEAWalk(
            waypoints: [.init(Coordinate(latitude: 1, longitude: 2), altitudeMSL: 3, hold: 1)],
            start: start)
        let log = walk.log(comment: "test")
        #expect(log.hasPrefix("# test\r\n$GPRMC"))
        #expect(log.hasSuffix("\r\n"))
        let lines = log.split(separator: "\r\n")
        #expect(lines.count == 1 + 2 * 5)
        #expect(lines.dropFirst().allSatisfy { NMEA.isValid($0) })
    }

    @Test func dateCrossesMidnightAndLeapDay() {
        let walk = NMEAWalk(
            waypoints: [.init(Coordinate(latitude: 0, longitude: 0), altitudeMSL: 0, hold: 1)],
            start: Date(timeIntervalSince1970: 1_709_251_199.5))  // 2024-02-29T23:59:59.5Z
        let rmc = walk.epochs().map { fields(NMEAWalk.sentences(for: $0)[0]) }
        #expect(rmc[0][1] == "235959.50" && rmc[0][9] == "290224")
        #expect(rmc[1][1] == "000000.50" && rmc[1][9] == "010324")
    }

    @Test func descriptionIsParsed() throws {
        let walk = try NMEAWalk(
            description: """
                # comment
                start 2026-06-01T10:00:00+01:00
                speed 1.5
                47.3769 8.5417 410 hold 5   # A
                47.3775 8.5425 440 nofix
                -27.2 153.05 2.5
                """)
        #expect(walk.start == start)
        #expect(walk.speed == 1.5)
        #expect(
            walk.waypoints == [
                .init(Coordinate(latitude: 47.3769, longitude: 8.5417), altitudeMSL: 410, hold: 5),
                .init(Coordinate(latitude: 47.3775, longitude: 8.5425), altitudeMSL: 440, noFix: true),
                .init(Coordinate(latitude: -27.2, longitude: 153.05), altitudeMSL: 2.5),
            ])
    }

    @Test func badDescriptionsNameTheLine() {
        #expect(throws: NMEAWalk.DescriptionError.self) { try NMEAWalk(description: "") }
        #expect(
            throws: NMEAWalk.DescriptionError(
                line: 2,
                reason: "latitude must be within ±90 and longitude within ±180")
        ) {
            try NMEAWalk(description: "1 2 3\n95 2 3")
        }
        #expect(throws: NMEAWalk.DescriptionError(line: 1, reason: "unknown word `fly`")) {
            try NMEAWalk(description: "1 2 3 fly")
        }
        #expect(throws: NMEAWalk.DescriptionError.self) { try NMEAWalk(description: "speed 0\n1 2 3") }
        #expect(throws: NMEAWalk.DescriptionError.self) { try NMEAWalk(description: "start tomorrow\n1 2 3") }
    }

    @Test func demoWalkIsUpToDate() throws {
        // The committed demo log must be what chest-walk makes of the committed description.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let description = try String(contentsOf: root.appendingPathComponent("demo/walk.txt"), encoding: .utf8)
        let log = try String(contentsOf: root.appendingPathComponent("demo/walk.nmea"), encoding: .utf8)
        #expect(try NMEAWalk(description: description).log(comment: "Generated by chest-walk.") == log)
    }

    private func fields(_ sentence: String) -> [Substring] {
        sentence.dropFirst().prefix { $0 != "*" }.split(separator: ",", omittingEmptySubsequences: false)
    }
}
