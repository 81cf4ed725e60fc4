import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

private func key(_ page: Int, _ set: LockSetName, _ kind: LockKind) -> LockKey {
    LockKey(page: page, set: set, kind: kind)
}
// Location and altitude streaks

/// One input of a streak scenario.
enum Step: Sendable {
    /// A fix `metres` north of the lock's point, received at `at` and handled at `at + late`.
    case fix(
        at: Double, metres: Double = 0, mode: FixMode = .threeD, altitude: Double? = 1250, eph: Double? = 5,
        epoch: Double? = nil, late: Double = 0)
    case disconnect
    case reconnect
}

struct StreakCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var steps: [Step]
    var opens: Bool
    /// The streak at the end, when the page stays locked.
    var confirmations: Int = 0
}

private func ons(_ seconds: Double...) -> [Step] { seconds.map { .fix(at: $0) } }

private func run(_ steps: [Step], lock: Lock) -> (engine: Engine, opened: Bool, ref: LockRef) {
    let message = F.message(pages: [Page(text: "there", setA: [lock])])
    var engine = F.engine([F.stored(message)])
    var opened: [Int] = []
    for step in steps {
        switch step {
        case let .fix(at, metres, mode, altitude, eph, epoch, late):
            let fix = Fix(
                mode: mode, coordinate: F.north(of: F.tower, metres: metres), altitudeMSL: altitude, eph: eph,
                time: F.t0.addingTimeInterval(epoch ?? at), receivedAt: 1000 + at)
            opened += engine.handle(.fix(fix, F.now(at + late))).unlocks
        case .disconnect: _ = engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: nil))
        case .reconnect: _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        }
    }
    return (engine, !opened.isEmpty, LockRef(id: message.id, key: key(1, .a, lock.kind)))
}

@Suite struct EngineStreakTests {
    static let locationCases: [StreakCase] = [
        StreakCase(testDescription: "three consecutive fixes on the point", steps: ons(1, 2, 3), opens: true),
        StreakCase(testDescription: "two fixes are not enough", steps: ons(1, 2), opens: false, confirmations: 2),
        StreakCase(
            testDescription: "29 m from the point, radius 30", steps: [1, 2, 3].map { .fix(at: $0, metres: 29) },
            opens: true),
        StreakCase(
            testDescription: "31 m from the point, radius 30", steps: [1, 2, 3].map { .fix(at: $0, metres: 31) },
            opens: false),
        StreakCase(testDescription: "a 2D fix qualifies", steps: [1, 2, 3].map { .fix(at: $0, mode: 2) }, opens: true),
        StreakCase(
            testDescription: "a single-fix jump onto the point, then away",
            steps: [
                .fix(at: 1, metres: 400), .fix(at: 2, metres: 400), .fix(at: 3), .fix(at: 4, metres: 400),
                .fix(at: 5, metres: 400),
            ], opens: false),
        StreakCase(
            testDescription: "on, on, away, on, on",
            steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, metres: 100), .fix(at: 4), .fix(at: 5)],
            opens: false, confirmations: 2),
        StreakCase(
            testDescription: "a gap over 5 s restarts the count", steps: ons(1, 2, 8), opens: false,
            confirmations: 1),
        StreakCase(testDescription: "after a gap, three more fixes open", steps: ons(1, 2, 8, 9, 10), opens: true),
        StreakCase(testDescription: "a gap of exactly 5 s keeps the count", steps: ons(1, 2, 7), opens: true),
        StreakCase(
            testDescription: "several reports of one epoch count once",
            steps: [
                .fix(at: 1), .fix(at: 1.2, epoch: 1), .fix(at: 1.4, epoch: 1), .fix(at: 2),
                .fix(at: 2.5, epoch: 2),
            ], opens: false, confirmations: 2),
        StreakCase(
            testDescription: "eph larger than the radius does not qualify",
            steps: [1, 2, 3].map { .fix(at: $0, eph: 31) }, opens: false),
        StreakCase(
            testDescription: "eph equal to the radius qualifies",
            steps: [1, 2, 3].map { .fix(at: $0, eph: 30) }, opens: true),
        StreakCase(
            testDescription: "unknown eph qualifies", steps: [1, 2, 3].map { .fix(at: $0, eph: nil) },
            opens: true),
        StreakCase(
            testDescription: "one inaccurate fix breaks the streak",
            steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, eph: 50), .fix(at: 4)], opens: false,
            confirmations: 1),
        StreakCase(
            testDescription: "mode 1 breaks the streak",
            steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, mode: 1), .fix(at: 4), .fix(at: 5)], opens: false,
            confirmations: 2),
        StreakCase(
            testDescription: "mode 1 fixes at the point never count",
            steps: [1, 2, 3].map { .fix(at: $0, mode: 1) }, opens: false),
        StreakCase(
            testDescription: "stale fixes (6 s old) count nothing",
            steps: [1, 2, 3].map { .fix(at: $0, late: 6) }, opens: false),
        StreakCase(
            testDescription: "a fix exactly 5 s old still counts",
            steps: [1, 2, 3].map { .fix(at: $0, late: 5) }, opens: true),
        StreakCase(
            testDescription: "a stale fix in the middle does not count",
            steps: [.fix(at: 1), .fix(at: 2, late: 10), .fix(at: 3)], opens: false, confirmations: 2),
        StreakCase(
            testDescription: "losing gpsd breaks the streak",
            steps: [.fix(at: 1), .fix(at: 2), .disconnect, .reconnect, .fix(at: 3)], opens: false,
            confirmations: 1),
    ]

    @Test(arguments: locationCases)
    func location(_ testCase: StreakCase) {
        let (engine, opened, ref) = run(testCase.steps, lock: .location(center: F.tower, radius: 30))
        #expect(opened == testCase.opens)
        #expect(engine.entries[ref.id]?.state.isOpen(page: 1) == testCase.opens)
        if !testCase.opens { #expect(engine.confirmations(of: ref) == testCase.confirmations) }
    }

    static let altitudeCases: [StreakCase] = [
        StreakCase(testDescription: "three 3D fixes in range", steps: ons(1, 2, 3), opens: true),
        StreakCase(
            testDescription: "anywhere on Earth", steps: [1, 2, 3].map { .fix(at: $0, metres: 50_000) },
            opens: true),
        StreakCase(testDescription: "two 3D fixes in range", steps: ons(1, 2), opens: false, confirmations: 2),
        StreakCase(
            testDescription: "at the bounds",
            steps: [
                .fix(at: 1, altitude: 1200), .fix(at: 2, altitude: 1300),
                .fix(at: 3, altitude: 1200),
            ], opens: true),
        StreakCase(
            testDescription: "2D fixes never count", steps: [1, 2, 3].map { .fix(at: $0, mode: 2) },
            opens: false),
        StreakCase(
            testDescription: "out of range", steps: [1, 2, 3].map { .fix(at: $0, altitude: 1300.5) },
            opens: false),
        StreakCase(
            testDescription: "out of range in the middle restarts",
            steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, altitude: 900), .fix(at: 4), .fix(at: 5)],
            opens: false, confirmations: 2),
        StreakCase(
            testDescription: "mode 1 in the middle restarts",
            steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, mode: 1), .fix(at: 4), .fix(at: 5)],
            opens: false, confirmations: 2),
        StreakCase(
            testDescription: "3D fixes without altitude count nothing",
            steps: [1, 2, 3].map { .fix(at: $0, altitude: nil) }, opens: false),
        StreakCase(
            testDescription: "an epoch without altitude between says nothing either way",
            steps: [.fix(at: 1), .fix(at: 2, altitude: nil), .fix(at: 3), .fix(at: 4, altitude: nil), .fix(at: 5)],
            opens: true),
        // A marine unit: GGA with altitude in some epochs only, RMC (a position, no altitude) in the others.
        StreakCase(
            testDescription: "altitude every 7 s, positions between keep the streak alive",
            steps: (1...15).map { .fix(at: Double($0), altitude: $0 % 7 == 1 ? 1250 : nil) }, opens: true),
        StreakCase(
            testDescription: "stale 3D fixes count nothing", steps: [1, 2, 3].map { .fix(at: $0, late: 6) },
            opens: false),
        StreakCase(
            testDescription: "one epoch reported three times",
            steps: [
                .fix(at: 1), .fix(at: 1.3, epoch: 1), .fix(at: 1.6, epoch: 1),
            ], opens: false, confirmations: 1),
        StreakCase(testDescription: "a gap over 5 s restarts", steps: ons(1, 2, 9), opens: false, confirmations: 1),
    ]

    @Test(arguments: altitudeCases)
    func altitude(_ testCase: StreakCase) {
        let (engine, opened, ref) = run(testCase.steps, lock: .altitude(Bounds(min: 1200, max: 1300)))
        #expect(opened == testCase.opens)
        if !testCase.opens { #expect(engine.confirmations(of: ref) == testCase.confirmations) }
    }

    @Test func locationAndAltitudeTogether() {
        let lock1 = Lock.location(center: F.tower, radius: 30)
        let lock2 = Lock.altitude(Bounds(min: 1200, max: 1300))
        let message = F.message(pages: [Page(text: "summit", setA: [lock1, lock2])])
        var engine = F.engine([F.stored(message)])
        var unlocks: [Int] = []
        for second in 1...3 {
            let fix = F.fix(at: Double(second), altitude: 1250)
            unlocks += engine.handle(.fix(fix, F.now(Double(second)))).unlocks
        }
        #expect(unlocks == [1])
    }

    @Test func theFixEventIsEmittedOncePerEpoch() {
        var engine = F.engine([])
        let first = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        let again = engine.handle(.fix(F.fix(at: 1.5, time: F.t0.addingTimeInterval(1)), F.now(1.5)))
        #expect(first.contains(.emit(.fix(FixSummary(F.fix(at: 1))))))
        #expect(!again.contains { if case .emit(.fix) = $0 { true } else { false } })
        #expect(engine.lastFix == F.fix(at: 1.5, time: F.t0.addingTimeInterval(1)))
    }
}
