import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The hunt's start and end, and the organiser's word to every team, in the engine (Engine+Schedule.swift,
/// docs/HUNTS.md "The hunt's start and end", "Word to all teams"). The fixtures' messages are sealed by the key
/// 0x07…, which these tests make the hunt's organiser key.
@Suite struct EngineScheduleTests {
    static let organiser = Data(repeating: 7, count: 32).base64EncodedString()

    static func join(starts: Double? = nil, ends: Double? = nil) -> HuntFile {
        var hunt = HuntFixture.hunt()
        hunt.organiser = organiser
        hunt.setSchedule(
            HuntSchedule(
                starts: starts.map { F.t0.addingTimeInterval($0) }, ends: ends.map { F.t0.addingTimeInterval($0) }))
        return hunt.joinFile(team: TeamName("red")!)!
    }

    /// A page whose time lock held long ago.
    static func message(_ n: UInt8 = 1, organiser: Bool = true) -> Message {
        var message = F.message(
            n, pages: [Page(text: "page \(n)", setA: [.time(F.t0.addingTimeInterval(-100))], setB: [])])
        if !organiser {
            message.seal = Seal(
                publicKey: [UInt8](repeating: 8, count: 32), signature: [UInt8](repeating: 9, count: 64))
        }
        return message
    }

    /// An engine that joined `file` and then loaded `messages`, as chestd does at start.
    static func engine(_ file: HuntFile, _ messages: [StoredMessage], word: HuntWord? = nil) -> (
        Engine, [Engine.Effect]
    ) {
        var engine = Engine(gpsServer: "localhost:2947")
        _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        var effects = engine.handle(.hunt(.joined(file, ledger: nil, releases: [:], outbox: 0, word: word), F.now(0)))
        effects += engine.handle(.loaded(messages, refused: [], F.now(0)))
        return (engine, effects)
    }

    static func schedule(
        _ engine: inout Engine, id: UInt64, starts: Double?, ends: Double? = nil, valid: Bool = true,
        hunt: HuntID = HuntFixture.huntID, at seconds: Double
    ) -> [Engine.Effect] {
        var envelope = HuntEnvelope(
            hunt: hunt, id: id, sent: F.t0,
            schedule: HuntSchedule(
                starts: starts.map { F.t0.addingTimeInterval($0) }, ends: ends.map { F.t0.addingTimeInterval($0) }))
        envelope = HuntFixture.signed(envelope, key: organiser)
        return engine.handle(
            .hunt(
                .heard(envelope, topic: HuntTopic.schedule(hunt: HuntFixture.huntID), signatureValid: valid),
                F.now(seconds)))
    }

    static func say(_ engine: inout Engine, id: UInt64, _ text: String, valid: Bool = true, at seconds: Double)
        -> [Engine.Effect]
    {
        let envelope = HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, id: id, sent: F.t0.addingTimeInterval(Double(id)),
                said: HuntSaid(text: text)), key: organiser)
        return engine.handle(
            .hunt(
                .heard(envelope, topic: HuntTopic.said(hunt: HuntFixture.huntID, id: id), signatureValid: valid),
                F.now(seconds)))
    }

    static func wakes(_ effects: [Engine.Effect]) -> [Date?] {
        effects.compactMap { if case let .wake(at) = $0 { at } else { nil } }
    }

    static func kept(_ effects: [Engine.Effect]) -> HuntWord? {
        effects.compactMap { if case let .hunt(.keepWord(word)) = $0 { word } else { nil } }.last
    }

    @Test func nothingOpensBeforeTheStartAndAPageHeldBeforeItOpensAtTheStart() throws {
        let (start, other) = (Self.message(1), Self.message(2, organiser: false))
        var (engine, loaded) = Self.engine(Self.join(starts: 100), [F.stored(start), F.stored(other)])
        #expect(
            loaded.unlocks == [1]
                && loaded.flattened.contains {
                    if case let .emit(.unlocked(u)) = $0 { u.id == other.id } else { false }
                },
            "a message that is not the hunt's opens as always")
        #expect(engine.entries[start.id]?.state.openPages.isEmpty == true)
        #expect(engine.entries[start.id]?.state.latched.isEmpty == false, "its locks latch meanwhile")
        #expect(Self.wakes(loaded).last == F.t0.addingTimeInterval(100), "the engine wakes at the start")
        #expect(engine.huntSchedule?.starts == F.t0.addingTimeInterval(100))
        #expect(engine.handle(.tick(F.now(99))).unlocks.isEmpty)
        // A message arriving before the start waits too.
        let late = Self.message(3)
        #expect(engine.handle(.loaded([F.stored(late)], refused: [], F.now(50))).unlocks.isEmpty)
        let opened = engine.handle(.tick(F.now(100)))
        #expect(opened.unlocks == [1, 1])
        #expect(engine.entries[start.id]?.state.openPages.first?.at == F.now(100).wall)
    }

    @Test func aPageWithoutLocksWaitsForTheStartToo() throws {
        let message = F.message(4, pages: [Page(text: "welcome", setA: [], setB: [])])
        var (engine, _) = Self.engine(Self.join(starts: 10), [F.stored(message)])
        #expect(engine.entries[message.id]?.state.openPages.isEmpty == true)
        let opened = engine.handle(.tick(F.now(10)))
        #expect(engine.entries[message.id]?.state.openPages.map(\.page) == [1])
        // Issue 59: its opening at the start is told as any page's is: an event and a notification, once on disk.
        #expect(opened.unlocks == [1], "\(opened)")
        #expect(
            opened.flattened.contains {
                if case let .notify(unlock) = $0 { unlock.id == message.id && unlock.page == 1 } else { false }
            })
    }

    @Test func afterTheEndNothingOpensUnlessItsLocksAllHeldBeforeTheEnd() throws {
        // A guarded page (its key in the file) whose time lock holds at 11: the key is read after the end at 11.05.
        let guarded = EngineSealTests.message(setB: [.time(F.t0.addingTimeInterval(11))])
        var (engine, _) = Self.engine(Self.join(ends: 11.05), [F.stored(guarded)])
        let request = try #require(EngineSealTests.requests(engine.handle(.tick(F.now(11)))).first)
        #expect(
            engine.handle(.keyDerived(request, .opened(SealedContent(text: "held in time")), F.now(11.1))).unlocks == [
                1
            ],
            "its locks all held before the end; its key came after")
        // A page whose lock holds only after the end stays closed, and nothing of it is even asked for.
        let late = F.message(5, pages: [Page(text: "too late", setA: [.time(F.t0.addingTimeInterval(12))], setB: [])])
        _ = engine.handle(.loaded([F.stored(late)], refused: [], F.now(11.5)))
        let after = engine.handle(.tick(F.now(12)))
        #expect(after.unlocks.isEmpty && EngineSealTests.requests(after).isEmpty)
        #expect(engine.entries[late.id]?.state.openPages.isEmpty == true)
        // The organiser extends the hunt: the page's lock held before the new end, so it opens.
        #expect(Self.schedule(&engine, id: 5, starts: nil, ends: 60, at: 20).unlocks == [1])
    }

    @Test func aNewerScheduleReplacesTheOlderAndAnOlderForgedOrForeignOneIsRefused() throws {
        let message = Self.message()
        var (engine, _) = Self.engine(Self.join(starts: 1000), [F.stored(message)])
        // Moved to the near future: kept, and the engine wakes then.
        let moved = Self.schedule(&engine, id: 20, starts: 30, at: 1)
        #expect(
            Self.kept(moved)?.schedule
                == HuntWord.Schedule(id: 20, schedule: HuntSchedule(starts: F.t0.addingTimeInterval(30))))
        #expect(Self.wakes(moved).last == F.t0.addingTimeInterval(30))
        // Heard again (retained, on every connection): nothing new.
        #expect(Self.schedule(&engine, id: 20, starts: 30, at: 2).isEmpty)
        // Older, forged, or of another hunt: refused and counted; the schedule in force stays.
        #expect(Self.ignored(Self.schedule(&engine, id: 10, starts: 5, at: 3)) == [.replayed])
        #expect(Self.ignored(Self.schedule(&engine, id: 30, starts: 5, valid: false, at: 4)) == [.badSignature])
        #expect(
            Self.ignored(Self.schedule(&engine, id: 31, starts: 5, hunt: HuntFixture.otherHuntID, at: 5)) == [
                .otherHunt
            ])
        #expect(engine.hunt?.ignored == ["replayed": 1, "badSignature": 1, "otherHunt": 1])
        #expect(engine.handle(.tick(F.now(10))).unlocks.isEmpty)
        #expect(engine.handle(.tick(F.now(30))).unlocks == [1])
        // A restart without the broker keeps the newest, and the gate refuses the older one still.
        let word = try #require(Self.kept(moved))
        var (again, _) = Self.engine(Self.join(starts: 1000), [], word: word)
        #expect(again.huntSchedule?.starts == F.t0.addingTimeInterval(30))
        #expect(Self.ignored(Self.schedule(&again, id: 10, starts: 5, at: 40)) == [.replayed])
        #expect(again.hunt?.ignored == ["replayed": 1])
    }

    @Test func theOrganisersWordIsAnnouncedOnceEver() throws {
        var (engine, _) = Self.engine(Self.join(), [])
        let first = Self.say(&engine, id: 5, "Meet at the fountain at noon.", at: 1)
        let announced = first.compactMap {
            if case let .emit(.said(said, hunt, name)) = $0 { (said, hunt, name) } else { nil }
        }
        #expect(announced.count == 1)
        #expect(
            announced.first?.0
                == HuntWord.Said(id: 5, text: "Meet at the fountain at noon.", at: F.t0.addingTimeInterval(5)))
        #expect(announced.first?.1 == HuntFixture.huntID.rawValue && announced.first?.2 == "Old Town")
        #expect(first.contains { if case .announce = $0 { true } else { false } }, "on the desktop too")
        // The word is kept before it is told.
        let keptIndex = try #require(first.firstIndex { if case .hunt(.keepWord) = $0 { true } else { false } })
        let emitIndex = try #require(first.firstIndex { if case .emit(.said) = $0 { true } else { false } })
        #expect(keptIndex < emitIndex)
        // Heard again: not told again. Forged: refused and counted. Another text under its id: a replay.
        #expect(Self.say(&engine, id: 5, "Meet at the fountain at noon.", at: 2).isEmpty)
        #expect(
            Self.ignored(Self.say(&engine, id: 6, "Everyone to the station!", valid: false, at: 3)) == [.badSignature])
        #expect(Self.ignored(Self.say(&engine, id: 5, "Meet at the station.", at: 4)) == [.replayed])
        #expect(engine.hunt?.ignored == ["badSignature": 1, "replayed": 1])
        #expect(engine.hunt?.said?.map(\.text) == ["Meet at the fountain at noon."])
        // After a restart, the retained word heard again is still not told.
        let word = try #require(Self.kept(first))
        var (again, _) = Self.engine(Self.join(), [], word: word)
        #expect(Self.say(&again, id: 5, "Meet at the fountain at noon.", at: 10).isEmpty)
        #expect(
            Self.say(&again, id: 7, "Ten minutes left.", at: 11).contains {
                if case .emit(.said) = $0 { true } else { false }
            })
    }

    @Test func theCountdownAndTheWindowInWords() {
        let schedule = HuntSchedule(starts: F.t0.addingTimeInterval(12 * 60), ends: F.t0.addingTimeInterval(3600))
        #expect(schedule.countdown(at: F.t0) == "the hunt starts in 12 min")
        #expect(schedule.countdown(at: F.t0.addingTimeInterval(12 * 60 - 30)) == "the hunt starts in 30 s")
        #expect(schedule.countdown(at: F.t0.addingTimeInterval(3600 - 300)) == "the hunt ends in 5 min")
        #expect(schedule.countdown(at: F.t0.addingTimeInterval(3600)) == "the hunt is over")
        #expect(
            HuntSchedule(starts: F.t0.addingTimeInterval(3 * 3600 + 120)).countdown(at: F.t0)
                == "the hunt starts in 3 h 2 min")
        #expect(HuntSchedule().countdown(at: F.t0) == nil)
        #expect(
            HuntSchedule(ends: F.t0.addingTimeInterval(7200)).countdown(at: F.t0) == nil,
            "an end hours away is not counted down")
        #expect(schedule.admitsCredit(receivedAt: F.t0.addingTimeInterval(3599.9)))
        #expect(!schedule.admitsCredit(receivedAt: F.t0.addingTimeInterval(3600)))
        #expect(schedule.isOpen(at: F.t0.addingTimeInterval(720)) && !schedule.isOpen(at: F.t0.addingTimeInterval(719)))
    }
}

extension EngineScheduleTests {
    /// The gate's refusals the engine said it ignored, and nothing else it did: any other effect fails the match.
    static func ignored(_ effects: [Engine.Effect]) -> [HuntGate.Refusal?] {
        effects.map { if case let .ignored(.refused(refusal), _) = $0 { refusal } else { nil } }
    }
}
