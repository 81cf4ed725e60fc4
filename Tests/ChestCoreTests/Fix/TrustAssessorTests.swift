import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// The trust level of each fix (docs/SECURITY.md "Hardware trust and time").
struct TrustAssessorTests {
    typealias F = CoreFixture
    static let usb = FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox", vendorID: "1546", productID: "01a7")
    static let pty = FixSource(kind: .pty, path: "/dev/pts/3", driver: "NMEA0183")

    /// A sky of `count` used satellites; `flicker` varies their signal strengths with `serial`.
    static func sky(_ serial: Int, count: Int = 8, gnss: [Int] = [0], flicker: Bool = true, equal: Bool = false)
        -> SkySummary
    {
        SkySummary(
            serial: serial,
            used: (0..<count).map { index in
                (
                    prn: index + 1, gnssid: gnss[index % gnss.count],
                    ss: equal ? 40 : Double(30 + index * 2 + (flicker ? (serial + index) % 3 : 0))
                )
            })
    }

    /// Fixes one second apart walking north at 1.4 m/s, from a USB receiver, each with a fresh sky.
    func assessor(_ source: FixSource? = usb, seconds: Int = 5) -> TrustAssessor {
        var assessor = TrustAssessor()
        assessor.receiver(source)
        for second in 0..<seconds {
            var fix = F.fix(at: Double(second), F.north(of: F.tower, metres: 1.4 * Double(second)))
            fix.sky = Self.sky(second)
            assessor.assess(fix)
        }
        return assessor
    }

    @Test func aUSBReceiverWalkingIsHardware() {
        #expect(assessor().trust == FixTrust(level: .hardware))
    }

    @Test func aPTYIsSimulatedAndNoDeviceUnverified() {
        #expect(assessor(Self.pty).level == .simulated)
        #expect(assessor(FixSource(kind: .network, path: "tcp://10.0.0.1:2947")).level == .simulated)
        #expect(assessor(nil).trust.reasons == ["gpsd has not said which device sends the fixes"])
        #expect(assessor(FixSource(kind: .unknown, path: "/dev/ttyS0")).level == .unverified)
    }

    @Test func gpsdStatus8IsSimulated() {
        var trust = assessor()
        var fix = F.fix(at: 5, F.north(of: F.tower, metres: 7))
        fix.status = 8
        let changed = trust.assess(fix)
        #expect(changed)
        #expect(trust.trust == FixTrust(level: .simulated, reasons: ["gpsd reports a simulated fix"]))
    }

    @Test func aJumpIsSuspectForAMinuteThenForgiven() {
        var trust = assessor()
        let changed = trust.assess(F.fix(at: 5, F.north(of: F.tower, metres: 900)))
        #expect(changed)
        #expect(trust.trust.reasons == ["the position jumped faster than anyone travels"])
        #expect(trust.level == .suspect)
        for second in 6...65 { trust.assess(F.fix(at: Double(second), F.north(of: F.tower, metres: 900))) }
        #expect(trust.level == .suspect)
        trust.assess(F.fix(at: 66, F.north(of: F.tower, metres: 900)))
        #expect(trust.level == .hardware)
    }

    /// Issue 24: a TPV without `time` skipped the jump check, so a teleport to Sydney stayed "hardware".
    @Test func aReportWithoutTimeIsCheckedForJumpsByWhenItArrived() {
        var trust = assessor()
        let sydney = Coordinate(latitude: -33.8568, longitude: 151.2153)
        trust.assess(F.fix(at: 5, sydney, time: .some(nil)))
        #expect(trust.level == .suspect)
        #expect(trust.trust.reasons == ["the position jumped faster than anyone travels"])
        // Back home, still without time, within a minute: a teleport and back.
        trust.assess(F.fix(at: 6, F.north(of: F.tower, metres: 8.4), time: .some(nil)))
        #expect(trust.findings.contains(.teleport))
        // Walking on without time is no jump.
        var walking = assessor()
        for second in 5..<10 {
            walking.assess(
                F.fix(at: Double(second), F.north(of: F.tower, metres: 1.4 * Double(second)), time: .some(nil)))
        }
        #expect(walking.level == .hardware)
    }

    @Test func aTeleportAndBackIsSuspect() {
        var trust = assessor()
        trust.assess(F.fix(at: 5, F.north(of: F.tower, metres: 2_000)))
        trust.assess(F.fix(at: 6, F.north(of: F.tower, metres: 7)))
        #expect(trust.findings.contains(.teleport))
        #expect(trust.trust.reasons.first == "the position jumped away and came back")
    }

    @Test func slowMovesAndTenHertzNoiseAreNotJumps() {
        var trust = assessor()
        // 60 m in 0.1 s is noise at 10 Hz, not a jump: under the 100 m floor.
        trust.assess(F.fix(at: 5, F.north(of: F.tower, metres: 60), time: F.t0.addingTimeInterval(4.1)))
        // 500 m in 10 s is a car.
        trust.assess(F.fix(at: 15, F.north(of: F.tower, metres: 560)))
        #expect(trust.level == .hardware)
    }

    @Test func timeGoingBackwardsIsSuspect() {
        var trust = assessor()
        trust.assess(F.fix(at: 5, time: F.t0.addingTimeInterval(-3_600)))
        #expect(trust.trust == FixTrust(level: .suspect, reasons: ["GPS time went backwards"]))
    }

    /// A fix `seconds` into the walk's standstill, with its sky.
    static func standing(at seconds: Int, sky: SkySummary) -> Fix {
        var fix = F.fix(at: Double(seconds), F.north(of: F.tower, metres: 7))
        fix.sky = sky
        return fix
    }

    @Test func aUniformSkyIsSuspect() {
        var trust = assessor()
        trust.assess(Self.standing(at: 5, sky: Self.sky(5, equal: true)))
        #expect(trust.trust.reasons == ["every satellite has the same signal strength"])
    }

    @Test func aFrozenSkyIsSuspectAfterThirtyReports() {
        var trust = assessor()
        for second in 5..<(5 + TrustAssessor.frozenReports) {
            trust.assess(Self.standing(at: second, sky: Self.sky(second, flicker: false)))
            #expect(trust.level == .hardware)
        }
        trust.assess(Self.standing(at: 40, sky: Self.sky(40, flicker: false)))
        #expect(trust.trust.reasons == ["the satellites' signal strengths have not changed for many reports"])
    }

    @Test func aMultiConstellationReceiverFallingBackToGPSAloneIsSuspect() {
        var trust = TrustAssessor()
        trust.receiver(Self.usb)
        var fix = F.fix(at: 0)
        fix.sky = Self.sky(0, gnss: [0, 6, 2])
        trust.assess(fix)
        #expect(trust.level == .hardware)
        fix = F.fix(at: 1)
        fix.sky = Self.sky(1, gnss: [0])
        trust.assess(fix)
        #expect(trust.trust.reasons == ["a multi-constellation receiver suddenly uses GPS alone"])
    }

    /// A sky without a used satellite (no fix under trees) is neither multi-constellation nor GPS alone.
    @Test func anEmptySkyIsNothingInParticular() {
        let empty = Self.sky(0, count: 0)
        #expect(!empty.isMultiConstellation && !empty.isGPSOnly)
        var trust = assessor()
        var fix = F.fix(at: 5, mode: 1)
        fix.sky = empty
        trust.assess(fix)
        #expect(trust.level == .hardware)
    }

    @Test func theEngineEmitsATrustEventWhenTheLevelChangesAndStatusShowsIt() throws {
        var engine = F.engine([])
        let named = engine.handle(.receiver(Self.pty, F.now(0)))
        #expect(
            named == [
                .emit(
                    .trust(
                        FixTrust(
                            level: .simulated,
                            reasons: [
                                "the receiver is a pseudo-terminal (gpsfake or a program writing NMEA)"
                            ]), source: Self.pty))
            ])
        let first = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        #expect(!first.contains { if case .emit(.trust) = $0 { true } else { false } })
        let status = engine.status(now: F.now(1))
        #expect(status.fix?.trust?.level == .simulated)
        #expect(status.fix?.source == Self.pty)
        let jumped = engine.handle(.fix(F.fix(at: 2, F.north(of: F.tower, metres: 5_000)), F.now(2)))
        #expect(jumped.contains { if case .emit(.trust(let trust, _)) = $0 { trust.level == .suspect } else { false } })
    }

    @Test func theTrustEventsJSONLine() throws {
        let event = ChestEvent.trust(FixTrust(level: .simulated, reasons: ["a", "b"]), source: Self.pty)
        let data = try JSONEncoder().encode(event)
        let object = try JSON(data)
        #expect(object["event"] == "trust")
        #expect(object["level"] == "simulated")
        #expect(object["reason"] == "a; b")
        #expect(object["source"]?["kind"] == "pty")
        #expect(try JSONDecoder().decode(ChestEvent.self, from: data) == event)
        #expect(event.scalarFields["level"] == "simulated")
    }
}
