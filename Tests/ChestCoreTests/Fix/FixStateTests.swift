import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The fix at a glance (`FixState`) and the `fixFound` / `fixLost` events: a frozen feed, a receiver that goes,
/// a fix that drops to no fix and comes back, gpsd gone; each told once, never a stale fix as current.
@Suite struct FixStateTests {
    static func told(_ effects: [Engine.Effect]) -> [String] {
        effects.compactMap { effect in
            switch effect {
            case let .emit(.fixFound(fix)): "found \(fix.mode.rawValue)"
            case let .emit(.fixLost(cause, _)): "lost \(cause.rawValue)"
            default: nil
            }
        }
    }

    static func checks(_ effects: [Engine.Effect]) -> [Double] {
        effects.compactMap { if case let .fixCheck(at) = $0 { at } else { nil } }
    }

    @Test func aFrozenFeedIsLostOnceTheFixAgesOutAndFoundWhenItResumes() {
        var engine = F.engine([])
        #expect(engine.fixState(now: F.now(0)).cause == .waiting)
        let first = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        #expect(Self.told(first) == ["found 3"])
        // One check at the fix's end of life; later fixes aim nothing more.
        #expect(Self.checks(first) == [1000 + 1 + Fix.maximumAge + Engine.fixCheckMargin])
        let second = engine.handle(.fix(F.fix(at: 2), F.now(2)))
        #expect(Self.told(second).isEmpty && Self.checks(second).isEmpty)
        // The check comes: a newer fix is in hand, so the next check follows it.
        let due = engine.handle(.tick(F.now(6.05)))
        #expect(Self.told(due).isEmpty)
        #expect(Self.checks(due) == [1000 + 2 + Fix.maximumAge + Engine.fixCheckMargin])
        // A timer that fires early is aimed again.
        #expect(Self.checks(engine.handle(.tick(F.now(6.5)))) == [1007.05])
        // The feed froze after second 2: at 7.05 s the fix is lost, and status says so.
        let frozen = engine.handle(.tick(F.now(7.05)))
        #expect(Self.told(frozen) == ["lost silent"])
        let state = engine.fixState(now: F.now(20))
        #expect(!state.hasFix && state.cause == .silent)
        #expect(state.reason == "no report from the receiver for 18 s")
        #expect(state.lastPositionAgeSeconds == 18)
        #expect(engine.status(now: F.now(20)).fixState == state)
        // Nothing more is told while it stays lost.
        #expect(Self.told(engine.handle(.tick(F.now(30)))).isEmpty)
        #expect(Self.told(engine.handle(.fix(F.fix(at: 31), F.now(31)))) == ["found 3"])
        #expect(engine.fixState(now: F.now(31)).hasFix)
    }

    @Test func noFixReportsLoseTheFixAndAReceiverThatGoesIsNamed() {
        var engine = F.engine([])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        // Under trees: the receiver reports mode 1.
        #expect(Self.told(engine.handle(.fix(F.fix(at: 2, nil, mode: .noFix), F.now(2)))) == ["lost noFix"])
        #expect(engine.fixState(now: F.now(2)).reason == "the receiver has no fix: it needs a view of the open sky")
        #expect(Self.told(engine.handle(.fix(F.fix(at: 3, mode: .twoD), F.now(3)))) == ["found 2"])
        // gpsd says the device went away, then sends its mode-0 report: one loss, naming the receiver.
        var effects = engine.handle(.receiver(nil, F.now(4)))
        effects += engine.handle(.fix(Fix(mode: .notSeen, receivedAt: 1004), F.now(4)))
        #expect(Self.told(effects) == ["lost receiver"])
        #expect(engine.fixState(now: F.now(5)).cause == .receiver)
        // The receiver is back.
        _ = engine.handle(.receiver(FixSource(kind: .pty, path: "/dev/pts/3"), F.now(6)))
        #expect(engine.fixState(now: F.now(6)).cause == .noFix)
        #expect(Self.told(engine.handle(.fix(F.fix(at: 7), F.now(7)))) == ["found 3"])
    }

    @Test func gpsdGoneLosesTheFixWithTheLinkAsTheCause() {
        var engine = F.engine([])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        // The daemon reports a lost link, then the receiver gone with it.
        var effects = engine.handle(
            .gpsLink(connected: false, server: "localhost:2947", reason: "gpsd closed the connection"))
        effects += engine.handle(.receiver(nil, F.now(2)))
        #expect(Self.told(effects) == ["lost gpsd"])
        #expect(
            effects.contains(
                .emit(.gpsd(connected: false, server: "localhost:2947", reason: "gpsd closed the connection"))))
        #expect(engine.fixState(now: F.now(2)).reason == "gpsd is not connected")
    }

    @Test func everyEventLineCarriesAtAndTheNewEventsReadBack() throws {
        let stamp = F.t0.addingTimeInterval(42)
        let events: [ChestEvent] = [
            .fixLost(.silent, reason: "no report from the receiver for 5 s"),
            .fixFound(FixSummary(mode: .threeD, latitude: 47.3769, longitude: 8.5417, altitudeMSL: 410, time: F.t0)),
            .gpsd(connected: false, server: "localhost:2947", reason: nil),
            .ingested(F.id(1), title: "T"),
            .clock(reason: "r"),
        ]
        for event in events {
            let line = event.line(emittedAt: stamp)
            let at = try #require(try JSON(line)["at"]?.string, "\(event.name) has no at")
            // An event with its own time keeps it; the others carry when chestd told them.
            #expect(ISO8601.parse(at) == (event.at ?? stamp))
            #expect(try ChestJSON.decoder().decode(ChestEvent.self, from: line).name == event.name)
        }
        let lost = try ChestJSON.decoder().decode(ChestEvent.self, from: events[0].line(emittedAt: stamp))
        #expect(lost == events[0])
        #expect(events[0].scalarFields["cause"] == "silent")
    }
}
