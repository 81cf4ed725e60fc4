import Foundation
import Testing
@testable import ChestCore

private typealias F = CoreFixture

/// The recorded track: one point an epoch, a bounded window, a file that survives a torn line.
@Suite struct TrackLogTests {
    @Test func keepsOnePointAnEpochWithinTheWindowAndTheCapacity() {
        var log = TrackLog(window: 60, capacity: 50)
        #expect(log.record(F.fix(at: 0)) != nil)
        #expect(log.record(F.fix(at: 0)) == nil)
        #expect(log.record(F.fix(at: 1, mode: 1)) == nil)
        #expect(log.record(F.fix(at: 2, time: .some(nil))) == nil)
        for second in 1...100 { _ = log.record(F.fix(at: Double(second))) }
        #expect(log.points.count == 50)
        #expect(log.points.first?.time == F.t0.addingTimeInterval(51))
        var short = TrackLog(window: 10, capacity: 50)
        for second in 0...30 { _ = short.record(F.fix(at: Double(second))) }
        #expect(short.points.count == 11)
        #expect(log.needsCompaction(fileLines: 63) && !log.needsCompaction(fileLines: 50))
    }

    @Test func itsFileReadsBackAndSkipsADamagedLine() {
        var log = TrackLog()
        _ = log.record(F.fix(at: 0))
        _ = log.record(F.fix(at: 1, mode: 2))
        let text = log.text + "2027-01-15T08:00:02Z 48.8"
        let read = TrackLog(text: text)
        #expect(read.points.count == 2)
        #expect(read.points[0].altitudeMSL == 100 && read.points[1].altitudeMSL == nil)
        #expect(read.points[0].coordinate.distance(to: F.tower) < 0.01)
    }

    @Test func aPointsLineWritesItsNumbersAsPrintfWould() {
        var generator = SeededGenerator(seed: 11)
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        for _ in 0..<2_000 {
            let point = TrackLog.Point(time: time,
                                       coordinate: Coordinate(latitude: .random(in: -90...90, using: &generator),
                                                              longitude: .random(in: -180...180, using: &generator)),
                                       altitudeMSL: .random(in: -450...9_000, using: &generator))
            #expect(point.line == ISO8601.string(time) + " "
                    + String(format: "%.7f %.7f %.1f", point.coordinate.latitude, point.coordinate.longitude, point.altitudeMSL!))
        }
        let edge = TrackLog.Point(time: time, coordinate: Coordinate(latitude: -0.000000049, longitude: 0.00000005))
        #expect(edge.line == ISO8601.string(time) + " " + String(format: "%.7f %.7f", -0.000000049, 0.00000005))
    }
}
