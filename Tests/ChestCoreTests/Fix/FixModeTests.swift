import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// gpsd's mode as a type: the rules ask for a position or an altitude; the wire keeps gpsd's integer.
@Suite struct FixModeTests {
    @Test func theModeSaysWhatAReportCanHold() {
        #expect([FixMode.notSeen, .noFix].allSatisfy { !$0.hasPosition && !$0.is3D })
        #expect(FixMode.twoD.hasPosition && !FixMode.twoD.is3D)
        #expect(FixMode.threeD.hasPosition && FixMode.threeD.is3D)
        #expect(
            [FixMode(gpsd: -4), FixMode(gpsd: 1), FixMode(gpsd: 2), FixMode(gpsd: 9)] == [
                .notSeen, .noFix, .twoD, .threeD,
            ])
        #expect(FixMode.twoD.description == "2D fix" && FixMode.notSeen.description == "no data")
    }

    @Test func theWireKeepsGpsdsInteger() throws {
        let fix = Fix(mode: .twoD, coordinate: Coordinate(latitude: 1, longitude: 2), receivedAt: 5)
        let object = try JSON(JSONEncoder().encode(fix))
        #expect(object["mode"] == 2)
        let read = try JSONDecoder().decode(Fix.self, from: Data(#"{"mode":7,"receivedAt":1}"#.utf8))
        #expect(read.mode == .threeD && read.position == nil)
    }
}
