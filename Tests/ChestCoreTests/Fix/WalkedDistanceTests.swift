import Foundation
import Testing

@testable import ChestCore

/// The distance walked a team's status carries (docs/HUNTS.md "Distance walked"): a track's length, not its
/// receiver's scatter standing still, nor a wild fix.
@Suite struct WalkedDistanceTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// Metres of scatter, the same for every run: a few metres each way, as a receiver standing under open sky.
    static func scatter(_ second: Int, by metres: Double) -> (distance: Double, bearing: Double) {
        (metres * abs(sin(Double(second) * 12.9898)), Double((second * 137) % 360))
    }

    @Test func aWalkOf330MetresWithScatterCountsAbout330() {
        var walked = WalkedDistance()
        // 200 m north, then 130 m east, at 1.4 m/s, each fix up to 4 m off with an error estimate of 5 m.
        let corner = Self.start.offset(metres: 200, bearing: 0)
        var second = 0
        func fix(_ point: Coordinate) {
            let (distance, bearing) = Self.scatter(second, by: 4)
            _ = walked.observe(
                point.offset(metres: distance, bearing: bearing), eph: 5, time: Self.t0 + Double(second))
            second += 1
        }
        for step in 0...142 { fix(Self.start.offset(metres: min(200, 1.4 * Double(step)), bearing: 0)) }
        for step in 0...93 { fix(corner.offset(metres: min(130, 1.4 * Double(step)), bearing: 90)) }
        #expect((300...345).contains(walked.metres), "\(walked.metres)")
    }

    @Test func aReceiverStandingStillForAnHourWalksNothing() {
        var walked = WalkedDistance()
        for second in 0..<3_600 {
            let (distance, bearing) = Self.scatter(second, by: 6)
            let grew = walked.observe(
                Self.start.offset(metres: distance, bearing: bearing), eph: 4, time: Self.t0 + Double(second))
            #expect(!grew)
        }
        #expect(walked.metres == 0)
    }

    @Test func aWildFixAndFixesTooPoorToTellMoveNothing() {
        var walked = WalkedDistance()
        func observe(_ position: Coordinate, eph: Double, after seconds: Double) -> Bool {
            walked.observe(position, eph: eph, time: Self.t0 + seconds)
        }
        _ = observe(Self.start, eph: 3, after: 0)
        // One fix 5 km away a second later, then back where it was.
        #expect(!observe(Self.start.offset(metres: 5_000, bearing: 45), eph: 3, after: 1))
        #expect(!observe(Self.start, eph: 3, after: 2))
        // A fix whose error estimate is 80 m says nothing of a 50 m step.
        #expect(!observe(Self.start.offset(metres: 50, bearing: 0), eph: 80, after: 60))
        #expect(walked.metres == 0)
        // A real move: 50 m a minute later.
        #expect(observe(Self.start.offset(metres: 50, bearing: 0), eph: 3, after: 120))
        #expect(abs(walked.metres - 50) < 0.5)
    }
}

extension Coordinate {
    /// The point `metres` away toward `bearing` (degrees from north), on a sphere of the Earth's mean radius.
    fileprivate func offset(metres: Double, bearing: Double) -> Coordinate {
        let angle = bearing * .pi / 180
        let degrees = metres / 111_195
        return Coordinate(
            latitude: latitude + degrees * cos(angle),
            longitude: longitude + degrees * sin(angle) / cos(latitude * .pi / 180))
    }
}
