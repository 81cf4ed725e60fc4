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
            let point = TrackLog.Point(
                time: time,
                coordinate: Coordinate(
                    latitude: .random(in: -90...90, using: &generator),
                    longitude: .random(in: -180...180, using: &generator)),
                altitudeMSL: .random(in: -450...9_000, using: &generator))
            #expect(
                point.line == ISO8601.string(time) + " "
                    + String(
                        format: "%.7f %.7f %.1f", point.coordinate.latitude, point.coordinate.longitude,
                        point.altitudeMSL!))
        }
        let edge = TrackLog.Point(time: time, coordinate: Coordinate(latitude: -0.000000049, longitude: 0.00000005))
        #expect(edge.line == ISO8601.string(time) + " " + String(format: "%.7f %.7f", -0.000000049, 0.00000005))
    }

    /// The track's own decimal writer against printf on what it could get wrong: exact ties (an odd number of
    /// 256ths is a tie at the seventh decimal, an odd number of quarters at the first), the digits next to them,
    /// signs and zeros, the ends of its range, and values it hands to printf (subnormal, huge, infinite).
    @Test func theDecimalWriterRoundsAsPrintfDoes() {
        func written(_ value: Double, _ decimals: Int) -> String {
            var bytes: [UInt8] = []
            TrackLog.Point.appendDecimal(value, decimals, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.05, 0.25, 0.35, 0.45, 1e-7, 5e-8, -5e-8, 4.9999999e-8,
            0x1p-60, 0x1p-101, 0x1p-1074, .leastNormalMagnitude, 179.99999995, -179.99999995,
            89.999999949999, 0x1p52 - 1, 0x1p52, 1e300, .infinity, -.infinity,
        ]
        for odd in stride(from: 1, to: 4_000, by: 2) {
            let tie = Double(odd) / 256
            values += [tie, -tie, tie.nextUp, tie.nextDown, Double(odd) / 4, -Double(odd) / 4, Double(odd) / 4 + 1_000]
        }
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<5_000 {
            let scale = [1e-9, 1e-3, 1, 180, 1e6, 1e12][Int.random(in: 0..<6, using: &generator)]
            values.append(.random(in: -scale...scale, using: &generator))
        }
        for value in values {
            #expect(written(value, 7) == " " + String(format: "%.7f", value), "\(value)")
            #expect(written(value, 1) == " " + String(format: "%.1f", value), "\(value)")
        }
    }
}
