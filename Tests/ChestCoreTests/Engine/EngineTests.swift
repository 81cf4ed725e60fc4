import Foundation
import Testing
@testable import ChestCore

private typealias F = CoreFixture

private let hash1 = "$argon2id$v=19$m=65536,t=2,p=1$one$one"
private let hash2 = "$argon2id$v=19$m=65536,t=2,p=1$two$two"

private func key(_ page: Int, _ set: LockSetName, _ kind: LockKind) -> LockKey {
    LockKey(page: page, set: set, kind: kind)
}

/// The reasons `read` gives for one page's locks, as text, by lock type.
private func reasons(_ engine: Engine, _ id: MessageID, page: Int, set: LockSetName = .a, now: Now) -> [LockKind: String] {
    guard let report = engine.read(id, now: now), let sets = report.pages.first(where: { $0.number == page })?.sets,
          let locks = sets.first(where: { $0.set == set })?.locks else { return [:] }
    var result: [LockKind: String] = [:]
    for lock in locks { result[lock.type] = lock.reason?.text(timeZone: F.utc, now: F.t0) ?? "holds" }
    return result
}

// MARK: - Pages, sets and latching

@Suite struct EngineSetTests {
    @Test func setAOrSetB() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.location(center: F.tower, radius: 30)], setB: [.time(F.t0.addingTimeInterval(100))]),
            Page(text: "two", setA: [.time(F.t0.addingTimeInterval(500))], setB: [.location(center: F.tower, radius: 30)]),
        ])
        var engine = F.engine([F.stored(message)])
        var effects: [Engine.Effect] = []
        for second in 1...3 { effects += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        let events = effects.unlockEvents
        #expect(events.map(\.page) == [1, 2])
        #expect(events.map(\.set?.rawValue) == ["A", "B"])
        #expect(events.map(\.title) == ["Test", "Test"])
        #expect(events.map(\.text) == ["one", "two"])
        #expect(events.map(\.id) == [message.id, message.id])
        #expect(events.allSatisfy { $0.at == F.t0.addingTimeInterval(3) })
        #expect(engine.entries[message.id]?.state.openPages.map(\.set) == [.a, .b])
        #expect(engine.entries[message.id]?.openness == .open)
        // Nothing waits any more: the time locks of open pages are forgotten.
        #expect(engine.handle(.tick(F.now(1000))).unlocks == [])
    }

    @Test func theOtherSetOpensThePageByTime() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.location(center: F.tower, radius: 30)], setB: [.time(F.t0.addingTimeInterval(100))]),
        ])
        var engine = F.engine([F.stored(message)])
        #expect(engine.handle(.tick(F.now(99))).unlocks == [])
        let events = engine.handle(.tick(F.now(100))).unlockEvents
        #expect(events.map(\.set?.rawValue) == ["B"])
    }

    @Test func locksLatchOneByOneAndStayHeld() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.location(center: F.tower, radius: 30), .time(F.t0.addingTimeInterval(60))]),
        ])
        var engine = F.engine([F.stored(message)])
        var effects: [Engine.Effect] = []
        for second in 1...3 { effects += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(effects.unlocks == [])
        let state = engine.entries[message.id]!.state
        #expect(state.latched.keys.sorted() == [key(1, .a, .location)])
        #expect(state.latched[key(1, .a, .location)] == F.t0.addingTimeInterval(3))
        #expect(effects.persisted.last == state)
        #expect(engine.entries[message.id]?.openness == .locked)
        // Walk away: the location lock stays latched.
        let away = F.north(of: F.tower, metres: 5_000)
        for second in 4...10 { _ = engine.handle(.fix(F.fix(at: Double(second), away), F.now(Double(second)))) }
        #expect(reasons(engine, message.id, page: 1, now: F.now(10)) == [
            .location: "holds", .time: "opens at 08:01:00 (in 60 s)",
        ])
        let opened = engine.handle(.tick(F.now(60)))
        #expect(opened.unlockEvents.map(\.set?.rawValue) == ["A"])
        #expect(engine.entries[message.id]?.state.latched.count == 2)
    }

    @Test func openPagesStayOpen() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.location(center: F.tower, radius: 30)]),
            Page(text: "two", setA: [.time(F.t0.addingTimeInterval(3600))]),
        ])
        var engine = F.engine([F.stored(message)])
        for second in 1...3 { _ = engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(engine.entries[message.id]?.state.openPageNumbers == [1])
        #expect(engine.entries[message.id]?.openness == .partial)
        // Away, disconnected, the clock set back, stale weather: page 1 stays open, nothing is emitted again.
        var later: [Engine.Effect] = []
        let away = F.north(of: F.tower, metres: 2_000)
        for second in 4...9 { later += engine.handle(.fix(F.fix(at: Double(second), away), F.now(Double(second)))) }
        later += engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: "unplugged"))
        later += engine.handle(.tick(Now(wall: F.t0.addingTimeInterval(-86_400), monotonic: 1010)))
        #expect(later.unlocks == [])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [1])
        let report = engine.read(message.id, now: F.now(10))
        #expect(report?.pages[0].open == true)
        #expect(report?.pages[0].text == "one")
        #expect(report?.pages[0].openedBy == .a)
        #expect(report?.pages[0].sets == [])
        #expect(report?.pages[1].open == false)
        #expect(report?.pages[1].text == nil)
    }

    @Test func anEmptySetIsNoAlternative() {
        let message = F.message(pages: [
            Page(text: "B only", setA: [], setB: [.time(F.t0.addingTimeInterval(100))]),
            Page(text: "A only", setA: [.time(F.t0.addingTimeInterval(200))], setB: []),
        ])
        var engine = F.engine([F.stored(message)])
        #expect(engine.entries[message.id]?.state.openPages == [])
        #expect(engine.read(message.id, now: F.now())?.pages.map { $0.sets.map(\.set) } == [[.b], [.a]])
        #expect(engine.handle(.tick(F.now(100))).unlockEvents.map(\.set?.rawValue) == ["B"])
        #expect(engine.handle(.tick(F.now(200))).unlockEvents.map(\.set?.rawValue) == ["A"])
    }

    @Test func aPageWithoutLocksIsOpenAtOnceWithoutAnUnlockedEvent() throws {
        let message = F.message(pages: [
            Page(text: "free"),
            Page(text: "later", setA: [.time(F.t0.addingTimeInterval(100))]),
            Page(text: "free too"),
        ])
        var engine = Engine(gpsServer: "localhost:2947")
        let effects = engine.ingest([F.stored(message)], F.now(5))
        #expect(effects.first == .emit(.ingested(message.id, title: message.title)))
        #expect(effects.unlocks == [])
        let state = try #require(effects.persisted.last)
        #expect(state.openPages == [
            OpenPage(page: 1, set: nil, at: F.t0.addingTimeInterval(5), delivered: true),
            OpenPage(page: 3, set: nil, at: F.t0.addingTimeInterval(5), delivered: true),
        ])
        #expect(engine.undelivered == [])
        #expect(engine.entries[message.id]?.openness == .partial)
        // Loaded at start (announce false): no ingested event, and an already open page is not opened again.
        var reloaded = Engine(gpsServer: "localhost:2947")
        let again = reloaded.handle(.loaded([StoredMessage(message: message, state: state, chest: .regular,
                                                          sentByYou: false)], refused: [], F.now(6)))
        #expect(again.persisted == [])
        #expect(!again.contains { if case .emit = $0 { true } else { false } })
    }

    @Test func deliveredMarksThePageAndUndeliveredListsTheRest() {
        let first = F.message(1, title: "First", pages: [Page(text: "a", setA: [.time(F.t0.addingTimeInterval(10))])])
        let second = F.message(2, title: "Second", pages: [
            Page(text: "b", setA: [.time(F.t0.addingTimeInterval(20))]),
            Page(text: "c", setB: [.time(F.t0.addingTimeInterval(30))]),
        ])
        var engine = F.engine([F.stored(second), F.stored(first)])
        #expect(engine.undelivered == [])
        _ = engine.handle(.tick(F.now(10)))
        _ = engine.handle(.tick(F.now(20)))
        _ = engine.handle(.tick(F.now(30)))
        #expect(engine.undelivered.map(\.title) == ["First", "Second", "Second"])
        #expect(engine.undelivered.map(\.page) == [1, 1, 2])
        #expect(engine.undelivered.map(\.set?.rawValue) == ["A", "A", "B"])
        let effects = engine.handle(.delivered(second.id, page: 1))
        #expect(effects.persisted.map { $0.openPages.map(\.delivered) } == [[true, false]])
        #expect(engine.undelivered.map(\.page) == [1, 2])
        #expect(engine.undelivered.map(\.title) == ["First", "Second"])
        #expect(engine.handle(.delivered(second.id, page: 1)) == [])
        #expect(engine.handle(.delivered(F.id(9), page: 1)) == [])
        _ = engine.handle(.delivered(first.id, page: 1))
        _ = engine.handle(.delivered(second.id, page: 2))
        #expect(engine.undelivered == [])
    }

    @Test func removedAndMovedMessages() {
        let message = F.message(pages: [Page(text: "a", setA: [.time(F.t0.addingTimeInterval(10))])])
        var engine = F.engine([F.stored(message)])
        _ = engine.handle(.changed(.move(message.id, from: .regular, to: .saved, for: F.client), failure: nil, F.now()))
        #expect(engine.list(chest: .saved).map(\.id) == [message.id])
        #expect(engine.list(chest: .regular) == [])
        #expect(engine.status(now: F.now()).messages == StatusReport.Counts(locked: 0, partial: 0, open: 0, saved: 1))
        _ = engine.handle(.changed(.remove(message.id, from: .saved, for: F.client), failure: nil, F.now()))
        #expect(engine.entries.isEmpty)
        #expect(engine.handle(.tick(F.now(10))).unlocks == [])
    }
}

// MARK: - Time

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
        #expect(engine.handle(.loaded([F.stored(message)], refused: [], F.now())).wakes
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
            _ = engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
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
        #expect(reasons(engine, message.id, page: 1, now: F.now(5)) == [
            .time: "opens at 2027-01-15 07:00:00 GMT (in 23 h) by GPS time (the system clock is 24 h ahead)",
        ])
        for second in 6...20 {
            _ = engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
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
            _ = engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
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
            _ = fast.handle(.fix(F.fix(at: seconds, time: F.t0.addingTimeInterval(Double(tenth) + behind)), F.now(seconds)))
        }
        #expect(fast.clock.offset == nil)
        // Live time after an old track: the jump drops the old evidence at once, the live feed confirms anew.
        var jumped = F.engine([])
        for second in 1...3 {
            _ = jumped.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + behind)),
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
        _ = engine.handle(.receiver(FixSource(kind: .usb, path: "/dev/ttyACM0", vendorID: "1546", productID: "01a7"),
                                    F.now(0)))
        var opened: [Int] = []
        for second in 1...3 {
            opened += engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + 3600)),
                                         F.now(Double(second)))).unlocks
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
        #expect(engine.handle(.tick(Now(wall: F.t0.addingTimeInterval(7200 + 3600), monotonic: 1000 + 3600))).unlocks
                == [1])
    }

    @Test func twoTimedFixesAreNotEnoughToDistrustTheClock() {
        var engine = F.engine([])
        for second in 1...2 {
            _ = engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) - 86_400)),
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
            _ = engine.handle(.fix(F.fix(at: second, mode: mode, time: F.t0.addingTimeInterval(second - 86_400)),
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
            _ = engine.handle(.fix(F.fix(at: Double(second), time: F.t0.addingTimeInterval(Double(second) + 3600)),
                                   F.now(Double(second))))
        }
        #expect(engine.clock.offset == -3600)
        #expect(!engine.status(now: F.now(3)).clock.usingGPSTime)
        #expect(engine.handle(.tick(F.now(99))).unlocks == [])
        #expect(engine.handle(.tick(F.now(100))).unlocks == [1])
    }
}

// MARK: - Location and altitude streaks

/// One input of a streak scenario.
enum Step: Sendable {
    /// A fix `metres` north of the lock's point, received at `at` and handled at `at + late`.
    case fix(at: Double, metres: Double = 0, mode: FixMode = .threeD, altitude: Double? = 1250, eph: Double? = 5,
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
            let fix = Fix(mode: mode, coordinate: F.north(of: F.tower, metres: metres), altitudeMSL: altitude, eph: eph,
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
        StreakCase(testDescription: "29 m from the point, radius 30", steps: [1, 2, 3].map { .fix(at: $0, metres: 29) },
                   opens: true),
        StreakCase(testDescription: "31 m from the point, radius 30", steps: [1, 2, 3].map { .fix(at: $0, metres: 31) },
                   opens: false),
        StreakCase(testDescription: "a 2D fix qualifies", steps: [1, 2, 3].map { .fix(at: $0, mode: 2) }, opens: true),
        StreakCase(testDescription: "a single-fix jump onto the point, then away",
                   steps: [.fix(at: 1, metres: 400), .fix(at: 2, metres: 400), .fix(at: 3), .fix(at: 4, metres: 400),
                           .fix(at: 5, metres: 400)], opens: false),
        StreakCase(testDescription: "on, on, away, on, on",
                   steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, metres: 100), .fix(at: 4), .fix(at: 5)],
                   opens: false, confirmations: 2),
        StreakCase(testDescription: "a gap over 5 s restarts the count", steps: ons(1, 2, 8), opens: false,
                   confirmations: 1),
        StreakCase(testDescription: "after a gap, three more fixes open", steps: ons(1, 2, 8, 9, 10), opens: true),
        StreakCase(testDescription: "a gap of exactly 5 s keeps the count", steps: ons(1, 2, 7), opens: true),
        StreakCase(testDescription: "several reports of one epoch count once",
                   steps: [.fix(at: 1), .fix(at: 1.2, epoch: 1), .fix(at: 1.4, epoch: 1), .fix(at: 2),
                           .fix(at: 2.5, epoch: 2)], opens: false, confirmations: 2),
        StreakCase(testDescription: "eph larger than the radius does not qualify",
                   steps: [1, 2, 3].map { .fix(at: $0, eph: 31) }, opens: false),
        StreakCase(testDescription: "eph equal to the radius qualifies",
                   steps: [1, 2, 3].map { .fix(at: $0, eph: 30) }, opens: true),
        StreakCase(testDescription: "unknown eph qualifies", steps: [1, 2, 3].map { .fix(at: $0, eph: nil) },
                   opens: true),
        StreakCase(testDescription: "one inaccurate fix breaks the streak",
                   steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, eph: 50), .fix(at: 4)], opens: false,
                   confirmations: 1),
        StreakCase(testDescription: "mode 1 breaks the streak",
                   steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, mode: 1), .fix(at: 4), .fix(at: 5)], opens: false,
                   confirmations: 2),
        StreakCase(testDescription: "mode 1 fixes at the point never count",
                   steps: [1, 2, 3].map { .fix(at: $0, mode: 1) }, opens: false),
        StreakCase(testDescription: "stale fixes (6 s old) count nothing",
                   steps: [1, 2, 3].map { .fix(at: $0, late: 6) }, opens: false),
        StreakCase(testDescription: "a fix exactly 5 s old still counts",
                   steps: [1, 2, 3].map { .fix(at: $0, late: 5) }, opens: true),
        StreakCase(testDescription: "a stale fix in the middle does not count",
                   steps: [.fix(at: 1), .fix(at: 2, late: 10), .fix(at: 3)], opens: false, confirmations: 2),
        StreakCase(testDescription: "losing gpsd breaks the streak",
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
        StreakCase(testDescription: "anywhere on Earth", steps: [1, 2, 3].map { .fix(at: $0, metres: 50_000) },
                   opens: true),
        StreakCase(testDescription: "two 3D fixes in range", steps: ons(1, 2), opens: false, confirmations: 2),
        StreakCase(testDescription: "at the bounds", steps: [.fix(at: 1, altitude: 1200), .fix(at: 2, altitude: 1300),
                                                             .fix(at: 3, altitude: 1200)], opens: true),
        StreakCase(testDescription: "2D fixes never count", steps: [1, 2, 3].map { .fix(at: $0, mode: 2) },
                   opens: false),
        StreakCase(testDescription: "out of range", steps: [1, 2, 3].map { .fix(at: $0, altitude: 1300.5) },
                   opens: false),
        StreakCase(testDescription: "out of range in the middle restarts",
                   steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, altitude: 900), .fix(at: 4), .fix(at: 5)],
                   opens: false, confirmations: 2),
        StreakCase(testDescription: "mode 1 in the middle restarts",
                   steps: [.fix(at: 1), .fix(at: 2), .fix(at: 3, mode: 1), .fix(at: 4), .fix(at: 5)],
                   opens: false, confirmations: 2),
        StreakCase(testDescription: "3D fixes without altitude count nothing",
                   steps: [1, 2, 3].map { .fix(at: $0, altitude: nil) }, opens: false),
        StreakCase(testDescription: "an epoch without altitude between says nothing either way",
                   steps: [.fix(at: 1), .fix(at: 2, altitude: nil), .fix(at: 3), .fix(at: 4, altitude: nil), .fix(at: 5)],
                   opens: true),
        // A marine unit: GGA with altitude in some epochs only, RMC (a position, no altitude) in the others.
        StreakCase(testDescription: "altitude every 7 s, positions between keep the streak alive",
                   steps: (1...15).map { .fix(at: Double($0), altitude: $0 % 7 == 1 ? 1250 : nil) }, opens: true),
        StreakCase(testDescription: "stale 3D fixes count nothing", steps: [1, 2, 3].map { .fix(at: $0, late: 6) },
                   opens: false),
        StreakCase(testDescription: "one epoch reported three times", steps: [
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
        let lock1 = Lock.location(center: F.tower, radius: 30), lock2 = Lock.altitude(Bounds(min: 1200, max: 1300))
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

// MARK: - Senders

@Suite struct EngineSentByYouTests {
    @Test func aSenderNeverOpensTheirOwnMessage() {
        let message = F.message(pages: [
            Page(text: "where", setA: [.location(center: F.tower, radius: 30)]),
            Page(text: "free"),
            Page(text: "when", setA: [.time(F.t0.addingTimeInterval(-10))], setB: [.pin(hash: hash1)]),
            Page(text: "weather", setA: [.weather(.clear)], setB: [.altitude(Bounds(min: 0, max: 200))]),
        ])
        var engine = F.engine([])
        var effects = engine.ingest([F.stored(message, sentByYou: true)], F.now())
        for second in 1...5 { effects += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        effects += engine.handle(.tick(F.now(100)))
        effects += engine.handle(.weatherFetched(WeatherObservation(condition: .clear, temperatureC: 20, coordinate: F.tower,
                                                             observedAt: F.t0.addingTimeInterval(90),
                                                             fetchedAt: F.t0.addingTimeInterval(95),
                                                             provider: "open-meteo"), F.now(100)))
        #expect(effects.unlocks == [])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [2])
        #expect(engine.entries[message.id]?.state.latched == [:])
        #expect(!engine.needsWeather)
        #expect(engine.handle(.pin(message.id, page: nil, pin: "1234", F.now(101))).pinResults
                == [.failed("you sent this message: its locks stay shut for you")])
        let report = engine.read(message.id, now: F.now(101))
        #expect(report?.sentByYou == true)
        #expect(report?.pages.map(\.open) == [false, true, false, false])
        let texts = Set(report!.pages.flatMap { $0.sets.flatMap { $0.locks.map { $0.reason?.text(timeZone: F.utc, now: F.t0) } } })
        #expect(texts == ["you sent this message"])
    }
}

// MARK: - PIN

@Suite struct EnginePINTests {
    static let message = F.message(pages: [
        Page(text: "pin only", setA: [.pin(hash: hash1)]),
        Page(text: "pin and time", setA: [.pin(hash: hash2), .time(F.t0.addingTimeInterval(1000))]),
        Page(text: "no pin", setA: [.time(F.t0.addingTimeInterval(2000))]),
    ])

    @Test func anAttemptIsCountedInTheLedgerBeforeTheComparison() {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        var counted = MessageState(ingestedAt: F.t0)
        counted.pin.wrong = 1
        counted.pin.pending = "4821"
        // The ledger is the one durable record of the count; the state is written when the attempt concludes.
        #expect(effects == [.recordAttempts(Self.message.id, counted.pin)])
        // Compared only once the ledger holds the count.
        #expect(engine.handle(.attemptsRecorded(Self.message.id, failure: nil, F.now(1))) == [
            .checkPIN(Self.message.id, pin: "4821", hashes: [key(1, .a, .pin): hash1, key(2, .a, .pin): hash2]),
        ])
        // A second attempt while the first is being checked is refused, not counted.
        #expect(engine.handle(.pin(Self.message.id, page: 2, pin: "4822", F.now(2))).pinResults
                == [.failed("another PIN attempt on this message is being checked; try again")])
        _ = engine.handle(.pinChecked(Self.message.id, pin: "4821", matching: [], F.now(2)))
        let onePage = engine.handle(.pin(Self.message.id, page: 2, pin: "4822", F.now(3)))
        #expect(engine.handle(.attemptsRecorded(Self.message.id, failure: nil, F.now(3)))
                == [.checkPIN(Self.message.id, pin: "4822", hashes: [key(2, .a, .pin): hash2])])
        #expect(onePage.compactMap { if case let .recordAttempts(_, attempts) = $0 { attempts.wrong } else { nil } } == [2])
    }

    @Test func aMatchLatchesAndOpens() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        let effects = engine.handle(.pinChecked(Self.message.id, pin: "4821",
                                                matching: [key(2, .a, .pin), key(1, .a, .pin)], F.now(2)))
        #expect(effects.unlocks == [1])
        #expect(effects.pinResults == [.accepted(latched: [key(1, .a, .pin), key(2, .a, .pin)], opened: [1])])
        #expect(effects.pinResults.first?.text == "PIN accepted: page 1 open")
        let state = engine.entries[Self.message.id]!.state
        #expect(state.pin.wrong == 0)
        #expect(state.pin.pending == nil)
        #expect(state.latched.keys.sorted() == [key(1, .a, .pin), key(2, .a, .pin)])
        #expect(effects.persisted.last == state)
        // The page that also waits for time opens at the time.
        #expect(engine.handle(.tick(F.now(1000))).unlocks == [2])
        // No PIN lock waits any more.
        #expect(engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1001))).pinResults
                == [.failed("no PIN lock of this message is waiting")])
    }

    @Test func aMatchThatOpensNothingYetSaysSo() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: 2, pin: "1111", F.now(1)))
        let effects = engine.handle(.pinChecked(Self.message.id, pin: "1111", matching: [key(2, .a, .pin)], F.now(2)))
        #expect(effects.pinResults == [.accepted(latched: [key(2, .a, .pin)], opened: [])])
        #expect(effects.pinResults.first?.text == "PIN accepted (1 lock); the page still waits for its other locks")
    }

    /// The wait after the n-th wrong PIN in a row (each tried once the previous wait is over).
    static let waits: [(Int, Double?)] = [(1, nil), (2, nil), (3, nil), (4, nil), (5, 30), (6, 60), (7, 300),
                                          (8, 900), (9, 3600), (10, 3600)]

    @Test func wrongPINsWaitLongerAndLonger() {
        var engine = F.engine([F.stored(Self.message)])
        var clock = 10.0
        for (n, wait) in Self.waits {
            let pin = String(format: "%04d", n)
            let attempt = engine.handle(.pin(Self.message.id, page: nil, pin: pin, F.now(clock)))
            #expect(attempt.compactMap { if case let .recordAttempts(_, attempts) = $0 { attempts.wrong } else { nil } } == [n])
            let result = engine.handle(.pinChecked(Self.message.id, pin: pin, matching: [], F.now(clock)))
            let until = wait.map { F.t0.addingTimeInterval(clock + $0) }
            #expect(result.pinResults == [.wrong(wrong: n, refusedUntil: until)], "attempt \(n)")
            #expect(result.persisted.map(\.pin.refusedUntil) == [until])
            if let wait {
                // Refused until the wait is over, without counting.
                let early = engine.handle(.pin(Self.message.id, page: nil, pin: "9999",
                                                      F.now(clock + wait - 1)))
                #expect(early == [.reply(F.client, .pin(.refused(until: until!)))])
                #expect(engine.entries[Self.message.id]?.state.pin.wrong == n)
                #expect(reasons(engine, Self.message.id, page: 1, now: F.now(clock + wait - 1))[.pin]
                        == "PIN attempts refused until \(LockReason.format(until!, F.utc, seconds: true))")
                clock += wait
            } else {
                clock += 1
            }
        }
    }

    @Test func theFirstRefusalIs30Seconds() {
        var engine = F.engine([F.stored(Self.message)])
        for n in 1...5 {
            let pin = "000\(n)"
            _ = engine.handle(.pin(Self.message.id, page: nil, pin: pin, F.now(Double(n))))
            _ = engine.handle(.pinChecked(Self.message.id, pin: pin, matching: [], F.now(Double(n))))
        }
        let refused = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(6))).pinResults
        #expect(refused == [.refused(until: F.t0.addingTimeInterval(35))])
        #expect(reasons(engine, Self.message.id, page: 1, now: F.now(6))[.pin]
                == "PIN attempts refused until 2027-01-15 08:00:35 GMT")
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(35)))
        #expect(engine.handle(.attemptsRecorded(Self.message.id, failure: nil, F.now(35)))
                == [.checkPIN(Self.message.id, pin: "4821", hashes: [key(1, .a, .pin): hash1, key(2, .a, .pin): hash2])])
    }

    /// Disk full: the count cannot be made durable, so the PIN is never compared and costs nothing.
    @Test func anAttemptWhoseCountCannotBeRecordedIsRefusedUncompared() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        let effects = engine.handle(.attemptsRecorded(Self.message.id, failure: "No space left on device", F.now(1)))
        #expect(!effects.contains { if case .checkPIN = $0 { true } else { false } })
        #expect(effects.pinResults == [.failed("cannot record the attempt durably (No space left on device); the PIN was neither counted nor compared: free some space and enter it again")])
        #expect(effects.persisted.isEmpty, "nothing was written, so nothing is undone on disk")
        #expect(engine.entries[Self.message.id]?.state.pin.pending == nil)
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
        // The next attempt, the right PIN, goes ahead: it is not told another attempt is being checked.
        #expect(engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(2))).contains {
            if case let .recordAttempts(_, attempts) = $0 { attempts.wrong == 1 && attempts.pending == "4821" } else { false }
        })
    }

    /// Disk full the other way round: the ledger holds the count but a later state write fails. The state read back
    /// from disk does not bring back an attempt in flight or an older count: those are the ledger's and memory's.
    @Test func aFailedStateWriteLeavesTheAttemptsAsTheLedgerHasThem() {
        var onDisk = MessageState(ingestedAt: F.t0)
        onDisk.pin.pending = "9999"
        var stored = F.stored(Self.message)
        stored.state = onDisk
        var engine = F.engine([stored])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "1111", F.now(1)))
        _ = engine.handle(.attemptsRecorded(Self.message.id, failure: nil, F.now(1)))
        let concluded = engine.handle(.pinChecked(Self.message.id, pin: "1111", matching: [], F.now(1)))
        #expect(concluded.pinResults == [.wrong(wrong: 1, refusedUntil: nil)])
        _ = engine.handle(.persistFailed(Self.message.id, onDisk: onDisk, reason: "No space left on device", skipped: []))
        let state = engine.entries[Self.message.id]!.state
        #expect(state.pin.wrong == 1 && state.pin.pending == nil && state.pin.tried == ["1111"])
        #expect(engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(2))).contains {
            if case .recordAttempts = $0 { true } else { false }
        })
    }

    @Test func repeatingAWrongPINCostsNothing() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "1234", F.now(1)))
        let wrong = engine.handle(.pinChecked(Self.message.id, pin: "1234", matching: [], F.now(1)))
        #expect(wrong.pinResults == [.wrong(wrong: 1, refusedUntil: nil)])
        #expect(wrong.pinResults.first?.text == "wrong PIN (1 of 5 attempts before a wait)")
        for second in 2...10 {
            let again = engine.handle(.pin(Self.message.id, page: nil, pin: "1234", F.now(Double(second))))
            #expect(again == [.reply(F.client, .pin(.alreadyTried))])
        }
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 1)
        #expect(engine.entries[Self.message.id]?.state.pin.tried == ["1234"])
    }

    static let failures: [(String, Int?, String, String)] = [
        ("five digits", nil, "12345", #"a PIN is exactly 4 digits, "12345" is not"#),
        ("letters", nil, "12a4", #"a PIN is exactly 4 digits, "12a4" is not"#),
        ("no such page", 9, "1234", "message \(F.id(1).short) has no page 9; it has 3"),
        ("page without PIN lock", 3, "1234", "page 3 has no PIN lock waiting"),
    ]

    @Test(arguments: failures)
    func refusedAttemptsCostNothing(_ name: String, _ page: Int?, _ pin: String, _ expected: String) {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(.pin(Self.message.id, page: page, pin: pin, F.now(1)))
        #expect(effects == [.reply(F.client, .pin(.failed(expected)))])
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }

    @Test func unknownMessagesAndStaleAnswers() {
        var engine = F.engine([F.stored(Self.message)])
        #expect(engine.handle(.pin(F.id(42), page: nil, pin: "1234", F.now(1)))
                == [.reply(F.client, .failure(ResolveError.none(F.id(42).rawValue).description))])
        // An answer for a PIN that is not pending is ignored.
        #expect(engine.handle(.pinChecked(Self.message.id, pin: "1234", matching: [key(1, .a, .pin)], F.now(1))) == [])
        #expect(engine.entries[Self.message.id]?.state.latched == [:])
    }

    @Test func readSaysThePINIsNeeded() {
        let engine = F.engine([F.stored(Self.message)])
        #expect(reasons(engine, Self.message.id, page: 1, now: F.now(1)) == [.pin: "needs the PIN"])
    }
}

// MARK: - Weather and temperature

struct WeatherCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var condition: WeatherCondition?
    var temperature: Double?
    /// Seconds between the observation and now.
    var age: Double = 60
    /// Metres north of the reader.
    var distance: Double = 500
    /// The set that opens page 1 (weather snowy | temperature -5..3), or nil.
    var opens: String?
}

@Suite struct EngineWeatherTests {
    static let message = F.message(pages: [
        Page(text: "snow", setA: [.weather(.snowy)], setB: [.temperature(Bounds(min: -5, max: 3))]),
    ])

    static func observation(_ testCase: WeatherCase, now: Double) -> WeatherObservation {
        WeatherObservation(condition: testCase.condition, temperatureC: testCase.temperature,
                           coordinate: F.north(of: F.tower, metres: testCase.distance),
                           observedAt: F.t0.addingTimeInterval(now - testCase.age),
                           fetchedAt: F.t0.addingTimeInterval(now), provider: "open-meteo")
    }

    static let cases: [WeatherCase] = [
        WeatherCase(testDescription: "snowing, 10 °C", condition: .snowy, temperature: 10, opens: "A"),
        WeatherCase(testDescription: "clear, -2 °C", condition: .clear, temperature: -2, opens: "B"),
        WeatherCase(testDescription: "clear, -5 °C", condition: .clear, temperature: -5, opens: "B"),
        WeatherCase(testDescription: "clear, 3 °C", condition: .clear, temperature: 3, opens: "B"),
        WeatherCase(testDescription: "clear, 3.1 °C", condition: .clear, temperature: 3.1, opens: nil),
        WeatherCase(testDescription: "snowing, 0 °C: set A wins", condition: .snowy, temperature: 0, opens: "A"),
        WeatherCase(testDescription: "raining, 10 °C", condition: .rainy, temperature: 10, opens: nil),
        WeatherCase(testDescription: "unmapped condition, 0 °C", condition: nil, temperature: 0, opens: "B"),
        WeatherCase(testDescription: "clear, temperature unknown", condition: .clear, temperature: nil, opens: nil),
        WeatherCase(testDescription: "snowing 29 min ago", condition: .snowy, temperature: 0, age: 29 * 60,
                    opens: "A"),
        WeatherCase(testDescription: "snowing 31 min ago (stale)", condition: .snowy, temperature: 0, age: 31 * 60,
                    opens: nil),
        WeatherCase(testDescription: "snowing 4.9 km away", condition: .snowy, temperature: 0, distance: 4_900,
                    opens: "A"),
        WeatherCase(testDescription: "snowing 5.1 km away", condition: .snowy, temperature: 0, distance: 5_100,
                    opens: nil),
        WeatherCase(testDescription: "snowing 60 km away", condition: .snowy, temperature: 0, distance: 60_000,
                    opens: nil),
    ]

    @Test(arguments: cases)
    func evaluatesObservation(_ testCase: WeatherCase) {
        var engine = F.engine([F.stored(Self.message)])
        #expect(engine.needsWeather)
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        let observation = Self.observation(testCase, now: 2)
        let effects = engine.handle(.weatherFetched(observation, F.now(2)))
        #expect(effects.first == .emit(.weather(WeatherSummary(
            condition: testCase.condition, temperatureC: testCase.temperature,
            observedAt: F.t0.addingTimeInterval(2 - testCase.age), latitude: observation.coordinate.latitude,
            longitude: observation.coordinate.longitude))))
        #expect(effects.unlockEvents.map(\.set?.rawValue) == (testCase.opens.map { [$0] } ?? []))
        #expect(engine.needsWeather == (testCase.opens == nil))
    }

    @Test func aMessageAddedUnderMatchingWeatherOpensAtOnce() {
        var engine = F.engine([])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        _ = engine.handle(.weatherFetched(Self.observation(WeatherCase(testDescription: "", condition: .snowy,
                                                                temperature: 10), now: 2), F.now(2)))
        #expect(!engine.needsWeather)
        let effects = engine.ingest([F.stored(Self.message)], F.now(3))
        #expect(effects.unlockEvents.map(\.set?.rawValue) == ["A"])
    }

    @Test func weatherWithoutAFixIsUnknown() {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(.weatherFetched(Self.observation(WeatherCase(testDescription: "", condition: .snowy,
                                                                          temperature: 0), now: 2), F.now(2)))
        #expect(effects.unlocks == [])
        #expect(engine.weatherReading(now: F.now(2)) == .unknown(.noPosition))
    }

    static let explanations: [(String, WeatherCase?, [LockKind: String], [LockKind: String])] = [
        ("no reading", nil, [.weather: "weather unknown: no reading yet"],
         [.temperature: "temperature unknown: no reading yet"]),
        ("stale", WeatherCase(testDescription: "", condition: .clear, temperature: 10, age: 45 * 60),
         [.weather: "weather unknown: last reading 45 min old"],
         [.temperature: "temperature unknown: last reading 45 min old"]),
        ("far", WeatherCase(testDescription: "", condition: .clear, temperature: 10, distance: 12_400),
         [.weather: "weather unknown: last reading is for a place 12 km away"],
         [.temperature: "temperature unknown: last reading is for a place 12 km away"]),
        ("usable", WeatherCase(testDescription: "", condition: .rainy, temperature: 10.3),
         [.weather: "raining, needs snowy"], [.temperature: "it is 10.3 °C, needs -5..3 °C"]),
        ("usable, whole degrees", WeatherCase(testDescription: "", condition: .clear, temperature: 12),
         [.weather: "clear, needs snowy"], [.temperature: "it is 12 °C, needs -5..3 °C"]),
        ("no temperature", WeatherCase(testDescription: "", condition: .cloudy, temperature: nil),
         [.weather: "cloudy, needs snowy"], [.temperature: "temperature unknown: the reading has no temperature"]),
    ]

    @Test(arguments: explanations)
    func readExplainsTheWeather(_ name: String, _ testCase: WeatherCase?, _ a: [LockKind: String],
                                _ b: [LockKind: String]) {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        if let testCase { _ = engine.handle(.weatherFetched(Self.observation(testCase, now: 2), F.now(2))) }
        #expect(reasons(engine, Self.message.id, page: 1, set: .a, now: F.now(2)) == a)
        #expect(reasons(engine, Self.message.id, page: 1, set: .b, now: F.now(2)) == b)
    }

    @Test func weatherStatus() {
        var engine = F.engine([F.stored(Self.message)])
        #expect(engine.status(now: F.now()).weather == nil)
        _ = engine.handle(.weatherFetched(Self.observation(WeatherCase(testDescription: "", condition: .rainy,
                                                                temperature: 10, age: 90), now: 2), F.now(2)))
        let weather = engine.status(now: F.now(2)).weather
        #expect(weather?.condition == "rainy")
        #expect(weather?.temperatureC == 10)
        #expect(weather?.ageSeconds == 90)
        #expect(weather?.provider == "open-meteo")
    }

    @Test func theMaximumAgeIsAdjustable() {
        var engine = F.engine([F.stored(Self.message)])
        engine.weatherSchedule.maxAge = 5 * 60
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        let effects = engine.handle(.weatherFetched(Self.observation(WeatherCase(testDescription: "", condition: .snowy,
                                                                          temperature: 0, age: 6 * 60), now: 2),
                                             F.now(2)))
        #expect(effects.unlocks == [])
    }
}

// MARK: - Explanations

@Suite struct EngineReadTests {
    static let message = F.message(pages: [
        Page(text: "where", setA: [.location(center: F.tower, radius: 30), .altitude(Bounds(min: 1200, max: 1300))]),
        Page(text: "when", setA: [.time(F.t0.addingTimeInterval(3600 + 1800))]),
    ])

    /// (what happened, location reason, altitude reason)
    static let fixCases: [(String, Bool, [Fix], Double, String, String)] = [
        ("gpsd not connected", false, [], 0, "no GPS fix yet: gpsd is not connected", "no GPS fix yet: gpsd is not connected"),
        ("no fix yet", true, [], 0, "no GPS fix yet", "no GPS fix yet"),
        ("mode 1", true, [F.fix(at: 1, mode: 1)], 1, "no GPS fix yet", "no GPS fix yet"),
        ("312 m south", true, [F.fix(at: 1, F.north(of: F.tower, metres: -312), altitude: 1000)], 1,
         "312 m away (N)", "at 1000 m, needs 1200..1300 m"),
        ("2.5 km north", true, [F.fix(at: 1, F.north(of: F.tower, metres: 2500), mode: 2)], 1,
         "2.5 km away (S)", "needs a 3D fix"),
        ("inaccurate", true, [F.fix(at: 1, altitude: 1250, eph: 44.6)], 1, "accuracy ±45 m, needs ±30 m or better",
         "1 of 3 confirming fixes"),
        ("two fixes on the point", true, [F.fix(at: 1, altitude: 1250), F.fix(at: 2, altitude: 1250)], 2,
         "2 of 3 confirming fixes", "2 of 3 confirming fixes"),
        ("the last fix is stale", true, [F.fix(at: 1, altitude: 1250)], 10, "the last GPS fix is 9 s old",
         "the last GPS fix is 9 s old"),
        ("3D without altitude", true, [F.fix(at: 1, altitude: nil)], 1, "1 of 3 confirming fixes", "needs a 3D fix"),
    ]

    @Test(arguments: fixCases)
    func explainsLocationAndAltitude(_ name: String, _ connected: Bool, _ fixes: [Fix], _ at: Double,
                                     _ location: String, _ altitude: String) {
        var engine = F.engine([F.stored(Self.message)], connected: connected)
        for fix in fixes { _ = engine.handle(.fix(fix, F.now(fix.receivedAt - 1000))) }
        #expect(reasons(engine, Self.message.id, page: 1, now: F.now(at)) == [.location: location, .altitude: altitude])
        #expect(reasons(engine, Self.message.id, page: 2, now: F.now(at)) == [.time: "opens at 09:30:00 (in 1 h 30 min)"])
    }

    @Test func reportShape() throws {
        var engine = F.engine([F.stored(Self.message)])
        for second in 1...3 { _ = engine.handle(.fix(F.fix(at: Double(second), altitude: 1000), F.now(Double(second)))) }
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
        (.clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 90), "opens at 08:00:00 (in 90 s) by GPS time (the system clock is 90 s ahead)"),
        (.clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 600), "opens at 08:00:00 (in 10 min) by GPS time (the system clock is 10 min ahead)"),
        (.clockAheadOfGPS(opensAt: F.t0, offsetSeconds: 174 * 86_400), "opens at 2027-01-15 08:00:00 GMT (in 174 days) by GPS time (the system clock is 174 days ahead)"),
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
        (.weatherUnknown(.offline(since: F.t0.addingTimeInterval(-60)), temperature: false), "weather unknown: offline since 07:59"),
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
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(LockReason.opensAt(F.t0).text(timeZone: paris, now: F.t0) == "opens at 09:00:00")
    }
}

// MARK: - Status

@Suite struct EngineStatusTests {
    @Test func statusReportsTheLinkTheFixAndTheCounts() {
        let locked = F.message(1, pages: [Page(text: "a", setA: [.pin(hash: hash1)])])
        let partial = F.message(2, pages: [Page(text: "a"), Page(text: "b", setA: [.pin(hash: hash1)])])
        let open = F.message(3, pages: [Page(text: "a")])
        let saved = F.message(4, pages: [Page(text: "a", setA: [.pin(hash: hash1)])])
        var engine = Engine(gpsServer: "gps.local:2947")
        #expect(engine.status(now: F.now()).gpsd == .init(connected: false, server: "gps.local:2947", reason: nil))
        _ = engine.handle(.loaded([F.stored(locked), F.stored(partial), F.stored(open), F.stored(saved, chest: .saved)],
                                 refused: [], F.now()))
        let connect = engine.handle(.gpsLink(connected: true, server: "gps.local:2947", reason: nil))
        #expect(connect == [.emit(.gpsd(connected: true, server: "gps.local:2947", reason: nil))])
        #expect(engine.handle(.gpsLink(connected: true, server: "gps.local:2947", reason: nil)) == [])
        _ = engine.handle(.fix(F.fix(at: 1, mode: 2, altitude: 35, eph: 7.5), F.now(1)))
        let status = engine.status(now: F.now(4))
        #expect(status.gpsd.connected)
        #expect(status.fix?.mode == 2)
        #expect(status.fix?.latitude == F.tower.latitude)
        #expect(status.fix?.eph == 7.5)
        #expect(status.fix?.ageSeconds == 3)
        #expect(status.clock.system == F.t0.addingTimeInterval(4))
        #expect(status.clock.gpsOffsetSeconds == nil)
        #expect(status.messages == .init(locked: 1, partial: 1, open: 1, saved: 1))
    }
}

/// A right PIN whose opening the disk refused: the engine, not the daemon, answers the client.
@Suite struct EnginePINPersistFailureTests {
    @Test func aRightPINWhoseOpeningCouldNotBeSavedIsAnsweredWithWhatToDo() {
        let message = F.message(pages: [Page(text: "pin", setA: [.pin(hash: hash1)])])
        var engine = F.engine([F.stored(message)])
        _ = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(1)))
        _ = engine.handle(.attemptsRecorded(message.id, failure: nil, F.now(1)))
        let right = engine.handle(.pinChecked(message.id, pin: "4821", matching: [key(1, .a, .pin)], F.now(2)))
        // The acceptance waits inside the write of what it opened.
        #expect(!right.contains { if case .reply = $0 { true } else { false } })
        guard case let .persist(id, _, then) = right.first(where: { if case .persist = $0 { true } else { false } }) else {
            Issue.record("no write in \(right)")
            return
        }
        #expect(id == message.id)
        #expect(then.pinResults == [.accepted(latched: [key(1, .a, .pin)], opened: [1])])

        let answer = engine.handle(.persistFailed(message.id, onDisk: nil, reason: "No space left on device", skipped: then))
        #expect(answer == [.reply(F.client, .failure(
            "the PIN was right, but chestd cannot save that it opened anything (No space left on device); free some space and enter it again"))])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [])
    }
}
