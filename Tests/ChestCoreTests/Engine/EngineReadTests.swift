import ChestIO
import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

// Explanations

@Suite struct EngineReadTests {
    static let message = F.message(pages: [
        Page(text: "where", setA: [.location(center: F.tower, radius: 30), .altitude(Bounds(min: 1200, max: 1300))]),
        Page(text: "when", setA: [.time(F.t0.addingTimeInterval(3600 + 1800))]),
    ])

    /// (what happened, location reason, altitude reason)
    static let fixCases: [(String, Bool, [Fix], Double, String, String)] = [
        (
            "gpsd not connected", false, [], 0, "no GPS fix yet: gpsd is not connected",
            "no GPS fix yet: gpsd is not connected"
        ),
        ("no fix yet", true, [], 0, "no GPS fix yet", "no GPS fix yet"),
        ("mode 1", true, [F.fix(at: 1, mode: 1)], 1, "no GPS fix yet", "no GPS fix yet"),
        (
            "312 m south", true, [F.fix(at: 1, F.north(of: F.tower, metres: -312), altitude: 1000)], 1,
            "312 m away (N)", "at 1000 m, needs 1200..1300 m"
        ),
        (
            "2.5 km north", true, [F.fix(at: 1, F.north(of: F.tower, metres: 2500), mode: 2)], 1,
            "2.5 km away (S)", "needs a 3D fix"
        ),
        (
            "inaccurate", true, [F.fix(at: 1, altitude: 1250, eph: 44.6)], 1, "accuracy ±45 m, needs ±30 m or better",
            "1 of 3 confirming fixes"
        ),
        (
            "two fixes on the point", true, [F.fix(at: 1, altitude: 1250), F.fix(at: 2, altitude: 1250)], 2,
            "2 of 3 confirming fixes", "2 of 3 confirming fixes"
        ),
        (
            "the last fix is stale", true, [F.fix(at: 1, altitude: 1250)], 10, "the last GPS fix is 9 s old",
            "the last GPS fix is 9 s old"
        ),
        ("3D without altitude", true, [F.fix(at: 1, altitude: nil)], 1, "1 of 3 confirming fixes", "needs a 3D fix"),
    ]

    @Test(arguments: fixCases)
    func explainsLocationAndAltitude(
        _ name: String, _ connected: Bool, _ fixes: [Fix], _ at: Double,
        _ location: String, _ altitude: String
    ) {
        var engine = F.engine([F.stored(Self.message)], connected: connected)
        for fix in fixes { _ = engine.handle(.fix(fix, F.now(fix.receivedAt - 1000))) }
        #expect(
            reasons(engine, Self.message.id, page: 1, now: F.now(at)) == [.location: location, .altitude: altitude])
        #expect(
            reasons(engine, Self.message.id, page: 2, now: F.now(at)) == [.time: "opens at 09:30:00 (in 1 h 30 min)"])
    }

    @Test func reportShape() throws {
        var engine = F.engine([F.stored(Self.message)])
        for second in 1...3 {
            _ = engine.handle(.fix(F.fix(at: Double(second), altitude: 1000), F.now(Double(second))))
        }
        let report = try #require(engine.read(Self.message.id, now: F.now(3)))
        #expect(report.id == Self.message.id)
        #expect(report.title == "Test")
        #expect(report.from == "Alice")
        #expect(report.state == .locked)
        #expect(report.chest == .regular)
        let locks = report.pages[0].sets[0].locks
        #expect(locks.map(\.type) == [.location, .altitude])
        #expect(locks.map(\.holds) == [true, false])
        #expect(locks.map(\.condition) == ["within 30 m of 48.85837, 2.29448", "1200..1300 m above sea level"])
        #expect(locks[0].reason == nil)
        #expect(locks[1].reason == .altitude(current: 1000, needs: Bounds(min: 1200, max: 1300)))
        #expect(report.pages[1].sets[0].locks[0].condition == "from 2027-01-15T09:30:00Z")
        #expect(engine.read(F.id(77), now: F.now()) == nil)
    }

    static let texts: [(LockReason, String)] = [
        (.opensAt(F.t0), "opens at 08:00:00"),
        (.opensAt(F.t0.addingTimeInterval(13.5)), "opens at 08:00:13 (in 13 s)"),
        (.opensAt(F.t0.addingTimeInterval(86_400 * 3)), "opens at 2027-01-18 08:00:00 GMT (in 3 days)"),
        (
            .clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 90),
            "opens at 08:00:00 (in 90 s) by GPS time (the system clock is 90 s ahead)"
        ),
        (
            .clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 600),
            "opens at 08:00:00 (in 10 min) by GPS time (the system clock is 10 min ahead)"
        ),
        (
            .clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 174 * 86_400),
            "opens at 2027-01-15 08:00:00 GMT (in 174 days) by GPS time (the system clock is 174 days ahead)"
        ),
        (.gpsNotConnected, "no GPS fix yet: gpsd is not connected"),
        (.needsFix, "no GPS fix yet"),
        (.needs3DFix, "needs a 3D fix"),
        (.staleFix(ageSeconds: 12.7), "the last GPS fix is 12 s old"),
        (.inaccurate(eph: 12.5, radius: 10), "accuracy ±13 m, needs ±10 m or better"),
        (.away(metres: 312.4, bearing: 0), "312 m away (N)"),
        (.away(metres: 312.4, bearing: 359), "312 m away (N)"),
        (.away(metres: 40, bearing: 44), "40 m away (NE)"),
        (.away(metres: 40, bearing: 100), "40 m away (E)"),
        (.away(metres: 40, bearing: 135), "40 m away (SE)"),
        (.away(metres: 40, bearing: 190), "40 m away (S)"),
        (.away(metres: 40, bearing: 230), "40 m away (SW)"),
        (.away(metres: 40, bearing: 269), "40 m away (W)"),
        (.away(metres: 40, bearing: 300), "40 m away (NW)"),
        (.away(metres: 1549, bearing: 90), "1.5 km away (E)"),
        (.confirming(2, of: 3), "2 of 3 confirming fixes"),
        (.altitude(current: 1187.6, needs: Bounds(min: 1200, max: 1300)), "at 1188 m, needs 1200..1300 m"),
        (.needsPIN, "needs the PIN"),
        (.pinRefused(until: F.t0.addingTimeInterval(30)), "PIN attempts refused until 2027-01-15 08:00:30 GMT"),
        (
            .weatherUnknown(.offline(since: F.t0.addingTimeInterval(-60)), temperature: false),
            "weather unknown: offline since 07:59"
        ),
        (.weather(current: .snowy, needs: .clear), "snowing, needs clear"),
        (.weather(current: .thundery, needs: .rainy), "thundering, needs rainy"),
        (.weather(current: nil, needs: .rainy), "weather unknown, needs rainy"),
        (.temperature(current: -7.5, needs: Bounds(min: -5, max: 3)), "it is -7.5 °C, needs -5..3 °C"),
        (.temperature(current: 21, needs: Bounds(min: 18.5, max: 20)), "it is 21 °C, needs 18.5..20 °C"),
        (.sentByYou, "you sent this message"),
    ]

    @Test(arguments: texts)
    func reasonText(_ reason: LockReason, _ text: String) {
        #expect(reason.text(timeZone: F.utc, now: F.t0) == text)
    }

    @Test func reasonTimesFollowTheZone() {
        let paris = Zone(identifier: "Europe/Paris")!
        #expect(LockReason.opensAt(F.t0).text(timeZone: paris, now: F.t0) == "opens at 09:00:00")
    }
}
