import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

// Time

@Suite struct EngineTimeTests {
    static let instant = F.t0.addingTimeInterval(100)

    /// (seconds after the instant of the tick, page open)
    @Test(arguments: [(-60.0, false), (-1, false), (-0.001, false), (0, true), (0.5, true), (86_400, true)])
    func tickAroundTheInstant(_ delta: Double, _ opens: Bool) {
        let message = F.message(pages: [Page(text: "t", setA: [.time(Self.instant)])])
        var engine = F.engine([F.stored(message)])
        let effects = engine.handle(.tick(F.now(100 + delta)))
        #expect(effects.unlocks == (opens ? [1] : []))
        #expect(engine.entries[message.id]?.state.isOpen(page: 1) == opens)
    }

    @Test func aLockAlreadyDueOpensOnAdd() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(-1))])])
        var engine = Engine(gpsServer: "x")
        let effects = engine.ingest([F.stored(message)], F.now())
        #expect(effects.unlocks == [1])
        #expect(effects.wakes == [nil])
    }

    @Test func wakeAimsAtTheNextDueInstant() {
        let message = F.message(pages: [
            Page(text: "1", setA: [.time(F.t0.addingTimeInterval(300))]),
            Page(text: "2", setA: [.time(F.t0.addingTimeInterval(100))], setB: [.time(F.t0.addingTimeInterval(200))]),
        ])
        var engine = Engine(gpsServer: "x")
        #expect(
            engine.handle(.loaded([F.stored(message)], refused: [], F.now())).wakes
                == [F.t0.addingTimeInterval(100)])
        // An early tick changes nothing, and the unchanged wake is not repeated.
        #expect(engine.handle(.tick(F.now(50))).wakes == [])
        // At 100, page 2 opens by A: its set B time lock no longer matters; next is 300.
        let at100 = engine.handle(.tick(F.now(100)))
        #expect(at100.unlocks == [2])
        #expect(at100.wakes == [F.t0.addingTimeInterval(300)])
        let at300 = engine.handle(.tick(F.now(300)))
        #expect(at300.unlocks == [1])
        #expect(at300.wakes == [nil])
    }

    @Test func gpsTimeOneDayBehindKeepsADueLockShut() {
        var engine = F.engine([])
        let behind = -86_400.0
        for second in 1...3 {
            _ = engine.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
                    F.now(Double(second))))
        }
        let status = engine.status(now: F.now(3))
        #expect(status.clock.usingGPSTime)
        #expect(status.clock.gpsOffsetSeconds == 86_400)
        #expect(!status.clock.rolloverSuspected)
        #expect(engine.clock.trustedTime(F.now(10)) == F.t0.addingTimeInterval(10 + behind))
        // Due an hour ago by the system clock, 23 hours ahead by GPS time.
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(-3600))])])
        let added = engine.ingest([F.stored(message)], F.now(4))
        #expect(added.unlocks == [])
        // The wake comes when the GPS evidence ages out, 30 s after the last fix (docs/SECURITY.md).
        #expect(added.wakes == [F.t0.addingTimeInterval(3 + ClockGuard.evidenceLifetime)])
        #expect(engine.handle(.tick(F.now(5))).unlocks == [])
        #expect(
            reasons(engine, message.id, page: 1, now: F.now(5)) == [
                .time: "opens at 2027-01-15 07:00:00 GMT (in 23 h) by GPS time (the system clock is 24 h ahead)"
            ])
        for second in 6...20 {
            _ = engine.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
                    F.now(Double(second))))
        }
        #expect(engine.handle(.tick(F.now(50))).unlocks == [])
        // The feed stopped at 20 s: at 50 s its evidence has aged out and the system clock decides again.
        #expect(engine.handle(.tick(F.now(51))).unlocks == [1])
    }

    @Test func gpsTimeEvidenceIsDroppedWhenTheFeedStopsJumpsOrRunsFast() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(-3600))])])
        var engine = F.engine([])
        let behind = -90 * 86_400.0
        for second in 1...3 {
            _ = engine.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
                    F.now(Double(second))))
        }
        #expect(engine.status(now: F.now(3)).clock.decidedBy == "gps")
        #expect(engine.ingest([F.stored(message)], F.now(3)).unlocks == [])
        // The replay ends: gpsd says the device went away.
        let stopped = engine.handle(.receiver(nil, F.now(4)))
        #expect(stopped.unlocks == [1])
        #expect(engine.status(now: F.now(4)).clock.why == "the GPS feed stopped")
        // A replay ten times faster than real time never confirms.
        var fast = F.engine([])
        for tenth in 1...30 {
            let seconds = Double(tenth) / 10
            _ = fast.handle(
                .fix(F.fix(at: seconds, time: F.t0.addingTimeInterval(Double(tenth) + behind)), F.now(seconds)))
        }
        #expect(fast.clock.offset == nil)
        // Live time after an old track: the jump drops the old evidence at once, the live feed confirms anew.
        var jumped = F.engine([])
        for second in 1...3 {
            _ = jumped.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
                    F.now(Double(second))))
        }
        _ = jumped.handle(.fix(F.fix(at: 4), F.now(4)))
        #expect(jumped.clock.offset == nil)
        #expect(jumped.status(now: F.now(4)).clock.decidedBy == "system")
        for second in 5...6 { _ = jumped.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(jumped.clock.offset == 0)
    }

    @Test func hardwareGPSTimeDecidesEvenWhenTheClockIsBehindIt() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(600))])])
        var engine = F.engine([F.stored(message)])
        _ = engine.handle(
            .receiver(
                FixSource(kind: .usb, path: "/dev/ttyACM0", vendorID: "1546", productID: "01a7"),
                F.now(0)))
        var opened: [Int] = []
        for second in 1...3 {
            opened +=
                engine.handle(
                    .fix(
                        F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + 3600)),
                        F.now(Double(second)))
                ).unlocks
        }
        // The system clock says 08:00:03 (faketime could say anything); the hardware receiver says 09:00:03.
        #expect(opened == [1])
        #expect(engine.status(now: F.now(3)).clock.why == "a hardware receiver gives trusted GPS time")
    }

    @Test func aClockSetForwardAfterTheLastFixOpensNothing() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(3600))])])
        var engine = F.engine([F.stored(message)])
        for second in 1...3 { _ = engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(!engine.status(now: F.now(3)).clock.usingGPSTime)
        // The user sets the clock two hours forward: monotonic time moved 7 s only.
        let forward = Now(wall: F.t0.addingTimeInterval(7200 + 10), monotonic: 1010)
        #expect(engine.handle(.tick(forward)).unlocks == [])
        #expect(engine.status(now: forward).clock.usingGPSTime)
        #expect(
            engine.handle(.tick(Now(wall: F.t0.addingTimeInterval(7200 + 3600), monotonic: 1000 + 3600))).unlocks
                == [1])
    }

    @Test func twoTimedFixesAreNotEnoughToDistrustTheClock() {
        var engine = F.engine([])
        for second in 1...2 {
            _ = engine.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) - 86_400)),
                    F.now(Double(second))))
        }
        #expect(!engine.status(now: F.now(2)).clock.usingGPSTime)
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(-3600))])])
        #expect(engine.handle(.loaded([F.stored(message)], refused: [], F.now(3))).unlocks == [1])
    }

    @Test func aTwoDimensionalFixBreaksTheClockConfirmation() {
        var engine = F.engine([])
        let modes: [FixMode] = [.threeD, .threeD, .twoD, .threeD, .threeD]
        for (index, mode) in modes.enumerated() {
            let second = Double(index + 1)
            _ = engine.handle(
                .fix(
                    F.fix(at: second, mode: mode, time: F.t0.addingTimeInterval(second - 86_400)),
                    F.now(second)))
        }
        #expect(engine.clock.offset == nil)
        _ = engine.handle(.fix(F.fix(at: 6, time: F.t0.addingTimeInterval(6 - 86_400)), F.now(6)))
        #expect(engine.clock.offset == 86_400)
    }

    @Test func anOffsetOverAYearIsARolloverAndNotTrusted() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(-3600))])])
        var engine = F.engine([])
        var effects: [Engine.Effect] = []
        for second in 1...3 {
            let gpsTime = F.t0.addingTimeInterval(Double(second) - 1024 * 7 * 86_400)
            effects += engine.handle(.fix(F.fix(at: Double(second), time: gpsTime), F.now(Double(second))))
        }
        let clockEvents = effects.compactMap { effect -> String? in
            if case let .emit(.clock(reason)) = effect { reason } else { nil }
        }
        #expect(clockEvents.count == 1)
        #expect(clockEvents.first?.contains("week-rollover") == true)
        let status = engine.status(now: F.now(3))
        #expect(status.clock.rolloverSuspected)
        #expect(!status.clock.usingGPSTime)
        #expect(status.clock.gpsOffsetSeconds == nil)
        #expect(engine.handle(.loaded([F.stored(message)], refused: [], F.now(4))).unlocks == [1])
    }

    @Test func aClockBehindGPSTimeIsStillTheClock() {
        let message = F.message(pages: [Page(text: "t", setA: [.time(F.t0.addingTimeInterval(100))])])
        var engine = F.engine([F.stored(message)])
        for second in 1...3 {
            _ = engine.handle(
                .fix(
                    F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + 3600)),
                    F.now(Double(second))))
        }
        #expect(engine.clock.offset == -3600)
        #expect(!engine.status(now: F.now(3)).clock.usingGPSTime)
        #expect(engine.handle(.tick(F.now(99))).unlocks == [])
        #expect(engine.handle(.tick(F.now(100))).unlocks == [1])
    }
}
