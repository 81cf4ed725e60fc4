import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

private func key(_ page: Int, _ set: LockSetName, _ kind: LockKind) -> LockKey {
    LockKey(page: page, set: set, kind: kind)
}

// Pages, sets and latching

@Suite struct EngineSetTests {
    @Test func setAOrSetB() {
        let message = F.message(pages: [
            Page(
                text: "one", setA: [.location(center: F.tower, radius: 30)], setB: [.time(F.t0.addingTimeInterval(100))]
            ),
            Page(
                text: "two", setA: [.time(F.t0.addingTimeInterval(500))], setB: [.location(center: F.tower, radius: 30)]
            ),
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
            Page(
                text: "one", setA: [.location(center: F.tower, radius: 30)], setB: [.time(F.t0.addingTimeInterval(100))]
            )
        ])
        var engine = F.engine([F.stored(message)])
        #expect(engine.handle(.tick(F.now(99))).unlocks == [])
        let events = engine.handle(.tick(F.now(100))).unlockEvents
        #expect(events.map(\.set?.rawValue) == ["B"])
    }

    @Test func locksLatchOneByOneAndStayHeld() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.location(center: F.tower, radius: 30), .time(F.t0.addingTimeInterval(60))])
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
        #expect(
            reasons(engine, message.id, page: 1, now: F.now(10)) == [
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
        #expect(
            state.openPages == [
                OpenPage(page: 1, set: nil, at: F.t0.addingTimeInterval(5), delivered: true),
                OpenPage(page: 3, set: nil, at: F.t0.addingTimeInterval(5), delivered: true),
            ])
        #expect(engine.undelivered == [])
        #expect(engine.entries[message.id]?.openness == .partial)
        // Loaded at start (announce false): no ingested event, and an already open page is not opened again.
        var reloaded = Engine(gpsServer: "localhost:2947")
        let again = reloaded.handle(
            .loaded(
                [
                    StoredMessage(
                        message: message, state: state, chest: .regular,
                        sentByYou: false)
                ], refused: [], F.now(6)))
        #expect(again.persisted == [])
        #expect(!again.contains { if case .emit = $0 { true } else { false } })
    }

    @Test func deliveredMarksThePageAndUndeliveredListsTheRest() {
        let first = F.message(1, title: "First", pages: [Page(text: "a", setA: [.time(F.t0.addingTimeInterval(10))])])
        let second = F.message(
            2, title: "Second",
            pages: [
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
        _ = engine.handle(.changed(.move(message.id, from: .regular, to: .saved, for: F.client), .done, F.now()))
        #expect(engine.list(chest: .saved).map(\.id) == [message.id])
        #expect(engine.list(chest: .regular) == [])
        #expect(engine.status(now: F.now()).messages == StatusReport.Counts(locked: 0, partial: 0, open: 0, saved: 1))
        _ = engine.handle(.changed(.remove(message.id, from: .saved, for: F.client), .done, F.now()))
        #expect(engine.entries.isEmpty)
        #expect(engine.handle(.tick(F.now(10))).unlocks == [])
    }
}
