import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture
private typealias H = HuntFixture

/// Page hints in the engine (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints"): a delay counts from the moment the page
/// became the next goal, hints open in order, the board's key that opens nothing is ignored and counted, and only a
/// hint the organiser holds is asked of the board.
@Suite struct EngineHintTests {
    static let key = [UInt8](repeating: 5, count: 32)
    static let ciphertext = [UInt8](repeating: 0, count: 296)

    static func hint(after: Int? = nil, cost: Int? = nil, key: [UInt8]? = EngineHintTests.key) -> PageHint {
        PageHint(ciphertext: ciphertext, key: key, after: after, cost: cost)
    }

    static func page(_ text: String, _ setA: [Lock], hints: [PageHint]) -> Page {
        var page = Page(text: text, setA: setA)
        page.hints = hints
        return page
    }

    /// Page 1 opens at t0+100 (a time lock); page 2 waits for it and has a hint 60 s after it became the next goal.
    static func chained() -> Message {
        F.message(pages: [
            Page(text: "one", setA: [.time(F.t0.addingTimeInterval(100))]),
            page(
                "two", [.after(PageLink(message: F.id(1), page: 1)), .pin(hash: "$argon2id$x")],
                hints: [hint(after: 60)]),
        ])
    }

    static func openings(_ effects: [Engine.Effect]) -> [HintOpening] {
        effects.flattened.compactMap { if case let .openHint(opening) = $0 { opening } else { nil } }
    }

    static func notes(_ effects: [Engine.Effect]) -> [HintNote] {
        effects.flattened.compactMap { if case let .emit(.hint(note)) = $0 { note } else { nil } }
    }

    static func replies(_ effects: [Engine.Effect]) -> [Reply] {
        effects.flattened.compactMap { if case let .reply(_, reply) = $0 { reply } else { nil } }
    }

    @Test func aDelayCountsFromThePageBecomingTheNextGoalNotFromImport() throws {
        let message = Self.chained()
        var engine = F.engine([F.stored(message)])
        // Imported at t0: sixty seconds later nothing opens, since page 2 is not the next goal yet.
        #expect(Self.openings(engine.handle(.tick(F.now(60)))).isEmpty)
        #expect(engine.read(message.id, now: F.now(60))?.pages[1].hints?.first?.opensAt == nil)
        let opened = engine.handle(.tick(F.now(100)))
        #expect(opened.unlocks == [1])
        // Page 2 became the next goal as page 1 opened: its hint is due at t0+160, and the wake-up is aimed there.
        #expect(opened.wakes.last == F.t0.addingTimeInterval(160))
        #expect(
            engine.read(message.id, now: F.now(100))?.pages[1].hints?.first?.opensAt == F.t0.addingTimeInterval(160))
        #expect(Self.openings(engine.handle(.tick(F.now(159)))).isEmpty)
        let due = Self.openings(engine.handle(.tick(F.now(160))))
        #expect(
            due.map(\.hint) == [1] && due.first?.page == 2 && due.first?.key == Self.key
                && due.first?.fromOrganiser == false)
        // The daemon opened it: saved in the state first, then told.
        let told = engine.handle(.hintOpened(due[0], text: "Look under the bench.", F.now(160)))
        guard case let .persist(_, state, then) = try #require(told.first) else {
            Issue.record("not persisted first")
            return
        }
        #expect(
            state.hints == [OpenHint(page: 2, hint: 1, at: F.t0.addingTimeInterval(160), text: "Look under the bench.")]
        )
        #expect(
            then.contains(
                .emit(
                    .hint(
                        HintNote(
                            id: message.id, title: "Test", page: 2, hint: 1, text: "Look under the bench.",
                            cost: nil, at: F.t0.addingTimeInterval(160))))))
        let report = try #require(engine.read(message.id, now: F.now(161))?.pages[1].hints?.first)
        #expect(report.open && report.text == "Look under the bench." && report.opensAt == nil)
        // Opened once: later ticks do not ask again.
        #expect(Self.openings(engine.handle(.tick(F.now(500)))).isEmpty)
    }

    @Test func aRestartKeepsTheMomentThePageBecameTheGoal() {
        var stored = F.stored(Self.chained())
        stored.state.openPages = [OpenPage(page: 1, set: .a, at: F.t0.addingTimeInterval(100), delivered: true)]
        stored.state.latched[LockKey(page: 1, set: .a, kind: .time)] = F.t0.addingTimeInterval(100)
        // chestd restarts at t0+130: the hint is still due at t0+160, not 60 s after the restart.
        var engine = F.engine([stored], at: 130)
        #expect(Self.openings(engine.handle(.tick(F.now(159)))).isEmpty)
        #expect(Self.openings(engine.handle(.tick(F.now(160)))).count == 1)
    }

    @Test func hintsOpenInOrderWhenAsked() throws {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(), Self.hint()])
        ])
        var engine = F.engine([F.stored(message)])
        let ask = ControlRequest.hint(id: message.id.rawValue, page: nil)
        let first = Self.openings(engine.handle(.request(F.client, ask, F.now(1))))
        #expect(first.map(\.hint) == [1])
        let opened = engine.handle(.hintOpened(first[0], text: "first", F.now(1)))
        #expect(
            Self.replies(opened) == [
                .hint(HintAnswer(id: message.id, title: "Test", page: 1, hint: 1, outcome: .opened, text: "first"))
            ])
        let second = Self.openings(engine.handle(.request(F.client, ask, F.now(2))))
        #expect(second.map(\.hint) == [2])
        _ = engine.handle(.hintOpened(second[0], text: "second", F.now(2)))
        let none = Self.replies(engine.handle(.request(F.client, ask, F.now(3))))
        guard case let .failure(why)? = none.first else {
            Issue.record("expected a refusal")
            return
        }
        #expect(why.contains("every hint") && why.contains("is open"))
        #expect(engine.entries[message.id]?.state.hints.map(\.text) == ["first", "second"])
    }

    @Test func aDelayedLocalHintIsNotOpenedEarlyOnAsking() {
        let message = F.message(pages: [Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(after: 600)])])
        var engine = F.engine([F.stored(message)])
        let effects = engine.handle(.request(F.client, .hint(id: message.id.rawValue, page: 1), F.now(10)))
        #expect(Self.openings(effects).isEmpty)
        #expect(!effects.contains { if case .hunt = $0 { true } else { false } })
        guard case let .failure(why)? = Self.replies(effects).first else {
            Issue.record("expected a refusal")
            return
        }
        #expect(why.contains("opens by itself at 2027-01-15T08:10:00Z"))
    }

    static func joined(_ messages: [StoredMessage]) -> Engine {
        var engine = F.engine(messages)
        _ = engine.handle(
            .hunt(.joined(H.hunt().joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0), F.now(0)))
        return engine
    }

    static func given(
        _ message: Message, page: Int = 1, hint: Int = 1, team: String = "red", id: UInt64 = 1_800_000_000_000
    ) -> HuntEnvelope {
        H.signed(
            HuntEnvelope(
                hunt: H.huntID, id: id, sent: F.t0,
                hint: HuntHint(
                    team: team, message: message.id.rawValue, page: page, hint: hint, cost: 2,
                    sealed: H.key(9, count: 80))))
    }

    static func topic(_ envelope: HuntEnvelope) -> String {
        HuntTopic.hint(hunt: H.huntID, team: envelope.hint!.team, hintID: envelope.hint!.hintID)
    }

    @Test func aRequestGoesToTheBoardOnlyForAHintItHolds() throws {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(cost: 0)]),
            Self.page("two", [.pin(hash: "$argon2id$x")], hints: [Self.hint(cost: 2, key: nil)]),
            Self.page("three", [.pin(hash: "$argon2id$x")], hints: [Self.hint(after: 600, cost: 1)]),
        ])
        // Outside a hunt, a hunt-held hint cannot be asked for.
        var alone = F.engine([F.stored(message)])
        let refused = alone.handle(.request(F.client, .hint(id: message.id.rawValue, page: 2), F.now(1)))
        #expect(!refused.contains { if case .hunt = $0 { true } else { false } })
        guard case let .failure(why)? = Self.replies(refused).first else {
            Issue.record("expected a refusal")
            return
        }
        #expect(why.contains("join the hunt"))

        var engine = Self.joined([F.stored(message)])
        // A free hint whose key is in the file opens here: nothing goes to the board.
        let free = engine.handle(.request(F.client, .hint(id: message.id.rawValue, page: 1), F.now(1)))
        #expect(
            Self.openings(free).count == 1
                && !free.contains { if case .hunt(.requestHint) = $0 { true } else { false } })
        // The board's own hint is asked of it, and the reader told so.
        let asked = engine.handle(.request(F.client, .hint(id: message.id.rawValue, page: 2), F.now(2)))
        #expect(asked.contains(.hunt(.requestHint(HuntHintRequest(message: message.id, page: 2, hint: 1)))))
        #expect(
            Self.replies(asked) == [
                .hint(
                    HintAnswer(
                        id: message.id, title: "Test", page: 2, hint: 1, outcome: .asked, cost: 2,
                        connected: false))
            ])
        #expect(Self.openings(asked).isEmpty)
        // A hunt's delayed hint asked before its time: the board may give it early.
        let early = engine.handle(.request(F.client, .hint(id: message.id.rawValue, page: 3), F.now(3)))
        #expect(early.contains(.hunt(.requestHint(HuntHintRequest(message: message.id, page: 3, hint: 1)))))
    }

    @Test func theBoardsKeyOpensTheHintAndAWrongOneIsIgnoredAndCounted() throws {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(cost: 2, key: nil)])
        ])
        var engine = Self.joined([F.stored(message)])
        let wrongKey = [UInt8](repeating: 6, count: 32)
        let envelope = Self.given(message)
        let tried = engine.handle(
            .hunt(.sealedKey(envelope, topic: Self.topic(envelope), signatureValid: true, key: wrongKey), F.now(5)))
        #expect(
            tried.contains(
                .hunt(
                    .keepHintKeys([HintRef(id: message.id, page: 1, hint: 1).key: Data(wrongKey).base64EncodedString()])
                )))
        let opening = try #require(Self.openings(tried).first)
        #expect(opening.fromOrganiser && opening.key == wrongKey)
        // The key opened nothing: no state, no event, one counted.
        let outcome = engine.handle(.hintOpened(opening, text: nil, F.now(5)))
        #expect(Self.notes(outcome).isEmpty && engine.entries[message.id]?.state.hints == [])
        #expect(engine.hunt?.ignored["hintKey"] == 1)
        // A newer answer with the right key opens it.
        let right = Self.given(message, id: 1_800_000_000_001)
        let retried = engine.handle(
            .hunt(.sealedKey(right, topic: Self.topic(right), signatureValid: true, key: Self.key), F.now(6)))
        let second = try #require(Self.openings(retried).first)
        #expect(Self.notes(engine.handle(.hintOpened(second, text: "Ask the baker.", F.now(6)))).map(\.cost) == [2])
        #expect(engine.entries[message.id]?.state.hints.map(\.text) == ["Ask the baker."])
    }

    @Test func aForgedOrMisaddressedHintIsRefusedByTheGate() {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(cost: 2, key: nil)])
        ])
        var engine = Self.joined([F.stored(message)])
        let forged = H.signed(Self.given(message), key: H.key(0x55))
        let bad = engine.handle(
            .hunt(.sealedKey(forged, topic: Self.topic(forged), signatureValid: true, key: Self.key), F.now(1)))
        #expect(
            bad == [.ignored(.refused(.unknownKey), topic: Self.topic(forged))],
            "the engine says what it ignored, for the log")
        let unsigned = Self.given(message)
        #expect(
            Self.openings(
                engine.handle(
                    .hunt(
                        .sealedKey(unsigned, topic: Self.topic(unsigned), signatureValid: false, key: Self.key),
                        F.now(2)))
            ).isEmpty)
        // Blue's hint republished on red's topic.
        let blue = Self.given(message, team: "blue")
        #expect(
            Self.openings(
                engine.handle(
                    .hunt(
                        .sealedKey(
                            blue, topic: HuntTopic.hint(hunt: H.huntID, team: "red", hintID: blue.hint!.hintID),
                            signatureValid: true, key: Self.key), F.now(3)))
            ).isEmpty)
        #expect(engine.hunt?.ignored == ["unknownKey": 1, "badSignature": 1, "wrongTopic": 1])
    }

    @Test func keysKeptFromAnEarlierRunOpenAMessageImportedLater() throws {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(cost: 2, key: nil)])
        ])
        var engine = Self.joined([])
        let kept = [HintRef(id: message.id, page: 1, hint: 1).key: Data(Self.key).base64EncodedString()]
        #expect(Self.openings(engine.handle(.hunt(.hintKeysKept(kept), F.now(1)))).isEmpty)
        let effects = engine.ingest([F.stored(message)], F.now(2))
        #expect(Self.openings(effects).map(\.key) == [Self.key])
    }

    /// Issue 45: a hunt's delayed hint has no key in the file; the board gives it free after its delay, and the reader
    /// is told what the board charged (nothing), not the price it would have paid earlier.
    @Test func aDelayedHintTheBoardGaveFreeIsToldAsFree() throws {
        let message = F.message(pages: [
            Self.page("one", [.pin(hash: "$argon2id$x")], hints: [Self.hint(after: 600, cost: 7, key: nil)])
        ])
        var engine = Self.joined([F.stored(message)])
        #expect(Self.openings(engine.handle(.tick(F.now(10_000)))).isEmpty, "without its key it never opens by itself")
        var envelope = Self.given(message)
        envelope.hint?.cost = 0
        let tried = engine.handle(
            .hunt(.sealedKey(envelope, topic: Self.topic(envelope), signatureValid: true, key: Self.key), F.now(700)))
        let opening = try #require(Self.openings(tried).first)
        #expect(opening.charged == 0)
        #expect(Self.notes(engine.handle(.hintOpened(opening, text: "Ask the baker.", F.now(700)))).map(\.cost) == [0])
        let report = try #require(engine.read(message.id, now: F.now(701))?.pages[0].hints?.first)
        #expect(report.open && report.cost == 0 && report.after == 600 && report.byOrganiser)
    }
}
