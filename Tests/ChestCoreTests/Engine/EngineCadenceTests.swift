import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The streak's gap judged against the receiver's cadence (docs/DESIGN.md "Lock rules"): a receiver with one epoch
/// every 5 s opens a place, a single wild fix still opens nothing, and a real gap still starts the count again.
@Suite struct EngineCadenceTests {
    /// A 30 m place at the tower, and an engine holding it.
    private struct Scene {
        var engine: Engine
        let ref: LockRef
        var opened = false

        init(lock: Lock = .location(center: F.tower, radius: 30)) {
            let message = F.message(title: "Tower", pages: [Page(text: "there", setA: [lock])])
            engine = F.engine([F.stored(message)])
            ref = LockRef(id: message.id, key: LockKey(page: 1, set: .a, kind: lock.kind))
        }

        /// A fix `metres` north of the tower, received and handled at `at`.
        mutating func fix(at: Double, metres: Double = 0) {
            let fix = F.fix(at: at, F.north(of: F.tower, metres: metres))
            opened = opened || !engine.handle(.fix(fix, F.now(at))).unlocks.isEmpty
        }

        /// Fixes every `every` seconds from `from`, `count` of them, `metres` north of the tower; the time after.
        @discardableResult
        mutating func fixes(from: Double, every: Double, count: Int, metres: Double = 0) -> Double {
            for n in 0..<count { fix(at: from + Double(n) * every, metres: metres) }
            return from + Double(count) * every
        }

        var count: Int { engine.confirmations(of: ref) }

        /// What `read` says of the lock now.
        func reason(at seconds: Double) -> String? {
            engine.read(ref.id, now: F.now(seconds))?.pages.first?.sets.first?.locks.first?.reason?.text(
                timeZone: F.utc, now: F.now(seconds).wall)
        }
    }

    @Test func aReceiverAtOneEpochEvery5SecondsOpensAPlace() {
        var scene = Scene()
        // Away for a while (the cadence is measured), then three epochs in the place, 5.2 s apart.
        let next = scene.fixes(from: 0, every: 5.2, count: 4, metres: 400)
        scene.fixes(from: next, every: 5.2, count: 2)
        #expect(!scene.opened)
        #expect(scene.count == 2)
        scene.fix(at: next + 10.4)
        #expect(scene.opened)
    }

    @Test func aSlowReceiverJustStartedOpensOnItsFourthFix() {
        // Nothing measured yet: the first interval is judged by the old 5 s, then by the cadence it showed.
        var scene = Scene()
        scene.fixes(from: 0, every: 5.2, count: 3)
        #expect(!scene.opened)
        #expect(scene.count == 2)
        scene.fix(at: 15.6)
        #expect(scene.opened)
    }

    @Test func aSingleWildFixOnASlowReceiverOpensNothing() {
        var scene = Scene()
        var at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fix(at: at)
        at = scene.fixes(from: at + 5, every: 5, count: 4, metres: 400)
        #expect(!scene.opened)
        #expect(scene.count == 0)
    }

    @Test func twoFixesOnASlowReceiverAreNotEnough() {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fixes(from: at, every: 5, count: 2)
        scene.fix(at: at + 10, metres: 100)
        #expect(!scene.opened)
        #expect(scene.count == 0)
    }

    @Test(arguments: [20.0, 16.0])
    func aRealGapOnASlowReceiverStartsTheCountAgain(_ gap: Double) {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fixes(from: at, every: 5, count: 2)
        scene.fix(at: at + 5 + gap)
        #expect(!scene.opened)
        #expect(scene.count == 1)
    }

    @Test func aGapOfTwiceTheCadenceKeepsTheCount() {
        // One epoch lost on a 5 s receiver: 10 s between two fixes in the place.
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fix(at: at)
        scene.fix(at: at + 10)
        scene.fix(at: at + 15)
        #expect(scene.opened)
    }

    @Test func aGapOfMoreThanTwiceTheCadenceStartsAgain() {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fix(at: at)
        scene.fix(at: at + 10.5)
        #expect(scene.count == 1)
    }

    @Test func aReceiverAtOneEpochEvery10SecondsOpensWithinFifteenSecondGaps() {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 10, count: 3, metres: 400)
        scene.fixes(from: at, every: 10, count: 3)
        #expect(scene.opened)
    }

    @Test func aReceiverAtOneEpochEvery20SecondsNeverOpensAPlace() {
        // Three fixes 20 s apart are not a stay: no gap longer than 15 s counts, whatever the cadence.
        var scene = Scene()
        scene.fixes(from: 0, every: 20, count: 10)
        #expect(!scene.opened)
        #expect(scene.count == 1)
        #expect(scene.engine.cadence.maximumGap == 5)
    }

    @Test func aOneHertzReceiverStillRestartsAfterAGapOver5Seconds() {
        // Pauses of 6 s between runs of 1 Hz epochs do not make the receiver slow: the median stays at 1 s.
        var scene = Scene()
        var at = 0.0
        for _ in 0..<4 {
            scene.fixes(from: at, every: 1, count: 2)
            at += 7
        }
        #expect(!scene.opened)
        #expect(scene.count == 2)
        #expect(scene.engine.cadence.seconds == 1)
    }

    @Test func gpsdsCycleCountsBeforeAnythingIsMeasured() {
        var scene = Scene()
        var source = FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox")
        source.cycle = 5
        _ = scene.engine.handle(.receiver(source, F.now(0)))
        scene.fixes(from: 1, every: 5.2, count: 3)
        #expect(scene.opened)
    }

    @Test func theMeasuredCadenceOutweighsGpsdsCycle() {
        // gpsd says 5 s; the receiver gives an epoch a second: a 6 s gap starts the count again.
        var scene = Scene()
        var source = FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox")
        source.cycle = 5
        _ = scene.engine.handle(.receiver(source, F.now(0)))
        scene.fixes(from: 1, every: 1, count: 4, metres: 400)
        scene.fix(at: 5)
        scene.fix(at: 11)
        #expect(scene.count == 1)
    }

    @Test func losingGpsdForgetsTheIntervalAcrossTheOutage() {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 1, count: 5, metres: 400)
        _ = scene.engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: nil))
        _ = scene.engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        scene.fix(at: at + 12, metres: 400)
        #expect(scene.engine.cadence.seconds == 1)
    }

    @Test func readSaysWhyAPlaceWaitsOnASlowReceiver() {
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        scene.fixes(from: at, every: 5, count: 2)
        #expect(scene.reason(at: at + 7) == "fixes come every 5 s: 2 of 3 confirming fixes")
        let status = scene.engine.status(now: F.now(at + 7))
        #expect(status.fix?.cadenceSeconds == 5)
        #expect(
            status.confirming == [
                StatusReport.Confirming(
                    id: scene.ref.id, title: "Tower", page: 1, kind: .location, count: 2, of: 3,
                    reason: "fixes come every 5 s: 2 of 3 confirming fixes")
            ])
    }

    @Test func aOneHertzReceiverKeepsTheShortWording() {
        var scene = Scene()
        scene.fixes(from: 0, every: 1, count: 2)
        #expect(scene.reason(at: 2) == "2 of 3 confirming fixes")
    }

    @Test func aSlowReceiversFixStaysCurrentBetweenEpochs() {
        // Without it the fix at a glance would be lost and found again every 5 s: fixLost, fixFound, stale in read.
        var scene = Scene()
        let at = scene.fixes(from: 0, every: 5, count: 4, metres: 400)
        let last = at - 5
        #expect(scene.engine.fixState(now: F.now(last + 7)).hasFix)
        #expect(scene.reason(at: last + 7) == "400 m away (S)")
        #expect(!scene.engine.fixState(now: F.now(last + 10.5)).hasFix)
        #expect(scene.reason(at: last + 10.5) == "the last GPS fix is 10 s old")
    }

    @Test func theFixIsNotLostAndFoundBetweenASlowReceiversEpochs() {
        var scene = Scene()
        var events: [Engine.Effect] = []
        for n in 0..<8 {
            let at = Double(n) * 5.2
            events += scene.engine.handle(.fix(F.fix(at: at, F.north(of: F.tower, metres: 400)), F.now(at)))
            events += scene.engine.handle(.tick(F.now(at + 5.1)))
        }
        let lost = events.filter { if case .emit(.fixLost) = $0 { true } else { false } }
        // The first interval is judged before anything is measured: at most that one.
        #expect(lost.count <= 1)
    }

    @Test func theCadenceReadsToTheSecond() {
        #expect(
            LockReason.confirmingEvery(2, of: 3, seconds: 5.04).text(timeZone: .utc, now: F.t0)
                == "fixes come every 5 s: 2 of 3 confirming fixes")
        #expect(
            LockReason.confirmingEvery(1, of: 3, seconds: 2.5).text(timeZone: .utc, now: F.t0)
                == "fixes come every 2.5 s: 1 of 3 confirming fixes")
    }
}
