import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestDaemon

/// chestd's sense of time, tested by advancing its clock rather than by waiting: a time lock opens when the clock
/// reaches it, GPS time stops counting 30 s after the last fix, the hunt's start and end hold pages, and a deleted
/// message can be brought back for 24 h (docs/ARCHITECTURE.md "The daemon in process").
@Suite(.timeLimit(.minutes(5)))
struct ClockTests {
    /// A time lock an hour ahead: closed until the clock has gone the hour, open by the timer chestd aimed at it.
    @Test func aTimeLockOpensWhenTheClockReachesItsTime() throws {
        let harness = try DaemonHarness()
        let opensAt = harness.clock.now().wall.addingTimeInterval(3600)
        let sender = try MessageFactory(configDirectory: harness.root + "/config-sender")
        let id = try #require(MessageID(try sender.drop("later", [.time(opensAt)], into: harness.chest)))
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }

        harness.advance(by: 3599)
        _ = harness.daemon.handle(.wake)
        #expect(harness.openPages(id).isEmpty, "a second before its time")

        harness.advance(by: 2)
        try harness.turn(until: "the page opens at its time") { !harness.openPages(id).isEmpty }
        #expect(harness.daemon.store.savedState(id)?.openPages.count == 1)
    }

    /// GPS time 2 h behind the system clock keeps a time lock due an hour ago closed; 30 s after the last fix that
    /// evidence is too old, and the lock follows the system clock again (docs/SECURITY.md "Hardware trust and time").
    @Test func gpsTimeStopsCountingThirtySecondsAfterTheLastFix() throws {
        let harness = try DaemonHarness()
        try harness.start()
        try harness.connectGPS()
        harness.gpsTime = harness.clock.now().wall.addingTimeInterval(-2 * 3600)
        try harness.walk(to: DaemonFixture.far, fixes: 4)
        let offset = try #require(harness.daemon.engine.clock.offset, "GPS time is confirmed")
        #expect(abs(offset - 2 * 3600) < 5)

        let sender = try MessageFactory(configDirectory: harness.root + "/config-sender")
        let due = harness.clock.now().wall.addingTimeInterval(-3600)
        let id = try #require(MessageID(try sender.drop("due", [.time(due)], into: harness.chest)))
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        #expect(harness.openPages(id).isEmpty, "GPS time says it is not due")

        // The last fix came a second ago (walk moved the clock on after it): 29 s more is its 30th second.
        harness.advance(by: 29)
        _ = harness.daemon.handle(.wake)
        #expect(harness.openPages(id).isEmpty, "GPS time 30 s old still counts")

        harness.advance(by: 2)
        try harness.turn(until: "the lock follows the system clock again") { !harness.openPages(id).isEmpty }
        #expect(harness.daemon.engine.clock.gpsTime(harness.clock.now()) == nil)
    }

    /// The hunt's start holds its pages until the clock reaches it, and after its end a page that arrives stays
    /// closed (docs/HUNTS.md "The hunt's start and end").
    @Test func aHuntsPagesWaitForItsStartAndNoneOpensAfterItsEnd() throws {
        let harness = try DaemonHarness()
        var hunt = try DaemonFixture.joinHunt(harness)
        let now = harness.clock.now().wall
        hunt.setSchedule(HuntSchedule(starts: now.addingTimeInterval(3600), ends: now.addingTimeInterval(7200)))
        try hunt.fileBytes.write(to: URL(fileURLWithPath: HuntLink.joinedPath(harness.settings)))
        // The organiser's message: its time lock has long held, the hunt's window decides.
        let organiser = try MessageFactory(configDirectory: harness.root + "/config-sender")
        let opened = Date(timeIntervalSince1970: 0)
        let early = try #require(MessageID(try organiser.drop("early", [.time(opened)], into: harness.chest)))
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[early] != nil }

        harness.advance(by: 3599)
        _ = harness.daemon.handle(.wake)
        #expect(harness.openPages(early).isEmpty, "a second before the start")
        harness.advance(by: 2)
        try harness.turn(until: "the page opens at the start") { !harness.openPages(early).isEmpty }

        harness.advance(by: 3600)
        let late = try #require(MessageID(try organiser.drop("late", [.time(opened)], into: harness.chest)))
        try harness.turn(until: "the late message is taken in") { harness.daemon.engine.entries[late] != nil }
        _ = harness.daemon.handle(.wake)
        #expect(harness.openPages(late).isEmpty, "after the end nothing more opens")
    }

    /// A hint with a 10 min delay opens by itself 10 min after its page became the next goal (docs/FORMAT.md "Hints").
    @Test func aDelayedHintOpensWhenTheClockHasRunItsDelay() throws {
        let harness = try DaemonHarness()
        let id = try DaemonFixture.dropSealedMessage(harness, hintAfter: 600)
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        func openHints() -> [OpenHint] { harness.daemon.engine.entries[id]?.state.hints ?? [] }

        harness.advance(by: 599)
        _ = harness.daemon.handle(.wake)
        #expect(openHints().isEmpty, "a second before its delay has run")
        harness.advance(by: 2)
        try harness.turn(until: "the hint opens by itself") { !openHints().isEmpty }
        #expect(openHints().first?.text == "Look under the bench.")
    }

    /// `chest undelete` brings a deleted message back for 24 h, and not after.
    @Test func aDeletedMessageCanBeBroughtBackFor24Hours() throws {
        let harness = try DaemonHarness()
        let sender = try MessageFactory(configDirectory: harness.root + "/config-sender")
        let first = try #require(
            MessageID(try sender.drop("first", [.time(Date(timeIntervalSince1970: 0))], into: harness.chest)))
        let second = try #require(
            MessageID(try sender.drop("second", [.time(Date(timeIntervalSince1970: 0))], into: harness.chest)))
        try harness.start()
        try harness.turn(until: "both messages are taken in") {
            harness.daemon.engine.entries[first] != nil && harness.daemon.engine.entries[second] != nil
        }
        for id in [first, second] {
            let deleted = try harness.call(.delete(id: id.rawValue), expecting: ImportResult.self)
            #expect(deleted.ok, "\(deleted.error ?? "")")
        }

        harness.advance(by: 23 * 3600)
        let early = try harness.call(.undelete(id: first.rawValue), expecting: ImportResult.self)
        #expect(early.ok, "\(early.error ?? "")")
        #expect(harness.daemon.engine.entries[first] != nil)

        harness.advance(by: 3600 + 1)
        let late = try harness.call(.undelete(id: second.rawValue), expecting: ImportResult.self)
        #expect(!late.ok && late.error?.contains("nothing to undelete") == true, "\(late.error ?? "")")
        #expect(harness.daemon.engine.entries[second] == nil)
    }
}
