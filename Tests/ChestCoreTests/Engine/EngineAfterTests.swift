import ChestIO
import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// `after` locks: chains of pages and messages (docs/QUEST.md "Chains").
@Suite struct EngineAfterTests {
    private func link(_ n: UInt8, _ page: Int) -> PageLink { PageLink(message: F.id(n), page: page) }

    @Test func aPageOpensWhenAnEarlierPageOfItsMessageOpens() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.time(F.t0.addingTimeInterval(10))]),
            Page(text: "two", setA: [.after(link(1, 1))]),
            Page(text: "three", setA: [.after(link(1, 2)), .time(F.t0.addingTimeInterval(50))]),
        ])
        var engine = F.engine([F.stored(message)])
        #expect(engine.handle(.tick(F.now(5))).unlocks == [])
        #expect(engine.handle(.tick(F.now(10))).unlocks == [1, 2])
        #expect(engine.entries[message.id]?.state.latched[LockKey(page: 3, set: .a, kind: .after)] != nil)
        #expect(engine.handle(.tick(F.now(50))).unlocks == [3])
    }

    @Test func aMessageWaitsForAnotherMessagesPage() {
        let first = F.message(
            1, title: "First", pages: [Page(text: "one", setA: [.location(center: F.tower, radius: 30)])])
        let second = F.message(2, title: "Second", pages: [Page(text: "two", setA: [.after(link(1, 1))])])
        var engine = F.engine([F.stored(first), F.stored(second)])
        let report = engine.read(second.id, now: F.now(0))
        #expect(
            report?.pages[0].sets[0].locks[0].reason?.text(timeZone: .current, now: F.t0)
                == "waits for page 1 of \u{201C}First\u{201D} to open")
        #expect(report?.pages[0].sets[0].locks[0].condition == "after page 1 of message \(F.id(1).short)")
        var effects: [Engine.Effect] = []
        for second in 1...3 { effects += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(effects.unlockEvents.map(\.title) == ["First", "Second"])
    }

    @Test func aMessageArrivingAfterThePageOpenedLatchesAtOnce() {
        let first = F.message(1, pages: [Page(text: "open")])
        let second = F.message(2, pages: [Page(text: "two", setA: [.after(link(1, 1))])])
        var engine = F.engine([F.stored(first)])
        #expect(engine.ingest([F.stored(second)], F.now(1)).unlocks == [1])
    }

    @Test func anEarlierMessageArrivingLaterOpensTheWaitingOne() {
        let first = F.message(1, pages: [Page(text: "open")])
        let second = F.message(2, pages: [Page(text: "two", setA: [.after(link(1, 1))])])
        var engine = F.engine([F.stored(second)])
        #expect(
            engine.read(second.id, now: F.now(0))?.pages[0].sets[0].locks[0].reason
                == .waitsForMessage(link(1, 1)))
        let effects = engine.ingest([F.stored(first)], F.now(1))
        #expect(effects.unlockEvents.map(\.id) == [second.id])
        #expect(engine.afters.isEmpty)
    }

    @Test func deletingAMessageForgetsItsPendingAfterLocks() {
        let second = F.message(2, pages: [Page(text: "two", setA: [.after(link(1, 1))])])
        var engine = F.engine([F.stored(second)])
        #expect(engine.afters.count == 1)
        for effect in engine.handle(.request(F.client, ControlRequest.delete(id: second.id.rawValue), F.now(1))) {
            if case let .change(change) = effect { _ = engine.handle(.changed(change, .done, F.now(1))) }
        }
        #expect(engine.afters.isEmpty)
    }

    @Test func theFileFormatCarriesAfterLocksAndRefusesASelfWait() throws {
        let message = F.message(pages: [Page(text: "one"), Page(text: "two", setA: [.after(link(1, 1))])])
        let decoded = try MessageFile.decode(MessageFile.encode(message))
        #expect(decoded.pages[1].setA == [.after(link(1, 1))])
        let looping = F.message(pages: [Page(text: "one", setA: [.after(link(1, 1))])])
        #expect(throws: MessageFormatError.self) { try MessageFile.decode(MessageFile.encode(looping)) }
    }

    @Test func theLockSpecReadsAfter() throws {
        #expect(try LockSpec.parse("after=\(F.id(3))#2", timeZone: F.utc) == .lock(.after(link(3, 2))))
        #expect(throws: LockSpecError.self) { try LockSpec.parse("after=\(F.id(3))#6", timeZone: F.utc) }
        #expect(throws: LockSpecError.self) { try LockSpec.parse("after=oak#1", timeZone: F.utc) }
    }
}
