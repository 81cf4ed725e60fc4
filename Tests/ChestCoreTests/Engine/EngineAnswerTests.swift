import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// Answer locks in the engine, the seal worker played by the test: an answer is normalised, counted and slowed in
/// the message's one PIN count, then tried on every answer slot (docs/FORMAT.md "Answer locks").
@Suite struct EngineAnswerTests {
    static let slot = KeySlot.answers(
        salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
        wrapped: Array(repeating: [UInt8](repeating: 2, count: 72), count: SealedPage.answerSlots))
    static let ciphertext = [UInt8](repeating: 3, count: 296)

    /// Page 1 asks a question (answer lock alone), page 2 has a PIN.
    static let message: Message = {
        var question = Page(
            text: "", setA: [.answer], sealed: SealedPage(ciphertext: ciphertext, slots: [.a: slot], version: 3))
        question.question = "What is Bern's clock tower called?"
        question.points = 5
        let pin = Page(
            text: "", setA: [.sealedPIN],
            sealed: SealedPage(
                ciphertext: ciphertext,
                slots: [
                    .a: .sealed(
                        salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
                        wrapped: [UInt8](repeating: 2, count: 72))
                ], version: 3))
        return F.message(pages: [question, pin])
    }()

    static func answer(_ text: String, page: Int? = nil, _ now: Now) -> Engine.Input {
        .request(F.client, ControlRequest.answer(id: message.id.rawValue, text: text, page: page), now)
    }

    static func requests(_ effects: [Engine.Effect]) -> [KeyRequest] {
        effects.compactMap { if case let .deriveKey(request) = $0 { request } else { nil } }
    }

    static func answers(_ effects: [Engine.Effect]) -> [PINOutcome] {
        effects.flattened.compactMap { if case let .reply(_, .answer(outcome)) = $0 { outcome } else { nil } }
    }

    /// Asks, records, and has the worker say the answer is wrong.
    static func wrong(_ engine: inout Engine, _ text: String, at time: Double) throws -> [Engine.Effect] {
        _ = engine.handle(answer(text, F.now(time)))
        let request = try #require(requests(engine.handle(.attemptsRecorded(message.id, .done, F.now(time)))).first)
        return engine.handle(.keyDerived(request, .wrong, F.now(time)))
    }

    @Test func theRightAnswerNormalisedOpensThePageAndTheQuestionShowsBefore() throws {
        var engine = F.engine([F.stored(Self.message)])
        let before = try #require(engine.read(Self.message.id, now: F.now(1)))
        #expect(before.pages[0].question == "What is Bern's clock tower called?")
        #expect(before.pages[0].points == 5)
        #expect(before.pages[1].points == 1)
        #expect(before.pages[0].sets[0].locks[0].reason == .needsAnswer)
        let attempt = engine.handle(Self.answer("  ZEITGLOCKEN   Turm ", F.now(1)))
        // Counted before anything is compared.
        #expect(Self.requests(attempt).isEmpty)
        #expect(attempt.contains(.recordAttempts(Self.message.id, engine.entries[Self.message.id]!.state.pin)))
        #expect(engine.entries[Self.message.id]?.state.pin.pending == "answer=zeitglocken turm")
        let requests = Self.requests(engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(1))))
        // Only the answer's set is tried, not the PIN's.
        #expect(requests.map(\.page) == [1])
        let request = try #require(requests.first)
        #expect(request.secret == "chest-v3|answer=zeitglocken turm")
        #expect(request.slot.wrappedKeys.count == SealedPage.answerSlots)
        let accepted = engine.handle(.keyDerived(request, .opened(SealedContent(text: "Under the clock.")), F.now(1.1)))
        #expect(Self.answers(accepted) == [.accepted(latched: [LockKey(page: 1, set: .a, kind: .answer)], opened: [1])])
        #expect(Self.answers(accepted).first?.text(for: "answer", timeZone: .utc) == "answer accepted: page 1 open")
        #expect(engine.read(Self.message.id, now: F.now(2))?.pages[0].text == "Under the clock.")
        #expect(engine.read(Self.message.id, now: F.now(2))?.pages[0].question == "What is Bern's clock tower called?")
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }

    @Test func wrongAnswersAreCountedAndSlowedInThePINsCount() throws {
        var engine = F.engine([F.stored(Self.message)])
        var clock = 10.0
        for (n, wait) in EnginePINTests.waits.prefix(7) {
            // Answers and PINs alternate: one count.
            let effects: [Engine.Effect]
            if n % 2 == 0 {
                _ = engine.handle(
                    Engine.Input.pin(Self.message.id, page: 2, pin: String(format: "%04d", n), F.now(clock)))
                let request = try #require(
                    Self.requests(engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(clock)))).first)
                effects = engine.handle(.keyDerived(request, .wrong, F.now(clock)))
                #expect(effects.pinResults.count == 1, "attempt \(n)")
            } else {
                effects = try Self.wrong(&engine, "guess \(n)", at: clock)
                let until = wait.map { F.t0.addingTimeInterval(clock + $0) }
                #expect(Self.answers(effects) == [.wrong(wrong: n, refusedUntil: until)], "attempt \(n)")
            }
            #expect(engine.entries[Self.message.id]?.state.pin.wrong == n)
            if let wait {
                let until = F.t0.addingTimeInterval(clock + wait)
                let early = engine.handle(Self.answer("Zytglogge", F.now(clock + wait - 1)))
                #expect(Self.answers(early) == [.refused(until: until)])
                #expect(
                    Self.answers(early).first?.text(for: "answer", timeZone: .utc).hasPrefix("too many wrong answers")
                        == true)
                #expect(engine.entries[Self.message.id]?.state.pin.wrong == n)
                #expect(
                    engine.read(Self.message.id, now: F.now(clock + wait - 1))?.pages[0].sets[0].locks[0].reason
                        == .answerRefused(until: until))
                clock += wait
            } else {
                clock += 1
            }
        }
    }

    @Test func anAnswerTriedBeforeInAnyWritingCostsNothing() throws {
        var engine = F.engine([F.stored(Self.message)])
        _ = try Self.wrong(&engine, "Big Ben", at: 1)
        #expect(Self.answers(engine.handle(Self.answer("big  ben", F.now(2)))) == [.alreadyTried])
        // A PIN of the same digits as a tried answer is not "already tried".
        _ = try Self.wrong(&engine, "1234", at: 3)
        let pin = engine.handle(Engine.Input.pin(Self.message.id, page: 2, pin: "1234", F.now(4)))
        #expect(pin.pinResults.isEmpty)
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 3)
    }

    @Test func aCountThatCannotBeWrittenComparesNothing() throws {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(Self.answer("Zytglogge", F.now(1)))
        let failed = engine.handle(.attemptsRecorded(Self.message.id, .failed("No space left on device"), F.now(1)))
        #expect(Self.requests(failed).isEmpty)
        #expect(
            Self.answers(failed).first?.text(for: "answer", timeZone: .utc).contains(
                "the answer was neither counted nor compared")
                == true)
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }

    @Test func answersThatCannotBeAreRefusedUncounted() {
        var engine = F.engine([F.stored(Self.message)])
        #expect(Self.answers(engine.handle(Self.answer("   ", F.now(1)))) == [.failed("the answer is empty")])
        #expect(
            Self.answers(engine.handle(Self.answer("x", page: 2, F.now(1)))) == [
                .failed("page 2 has no answer lock waiting")
            ])
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }

    /// Issue 45, item 5: NUL, ESC, BEL or a right-to-left override is no answer: refused before it is counted, so it
    /// neither costs an attempt nor asks for a derivation.
    @Test func anAnswerWithAControlCharacterIsRefusedBeforeItIsCounted() {
        var engine = F.engine([F.stored(Self.message)])
        for text in ["zyt\u{0}glogge", "\u{1B}[2Jzytglogge", "zytglogge\u{7}", "\u{202E}eggolgtyz"] {
            let effects = engine.handle(Self.answer(text, F.now(1)))
            #expect(
                Self.answers(effects).first?.text(for: "answer", timeZone: .utc).contains("control character") == true,
                "\(effects)")
            #expect(
                !effects.flattened.contains { if case .recordAttempts = $0 { true } else { false } }
                    && Self.requests(effects).isEmpty)
        }
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }
}

/// An answer paired with a sealed place in one set: kept uncounted and tried with each new cell, as a PIN with a place.
@Suite struct EngineAnswerWithPlaceTests {
    static let target = F.tower
    static let grid = CellGrid(center: target, radius: 20)
    static let content = SealedContent(text: "Under the clock.", a: SearchArea(center: target, radius: 20))
    static let slot = KeySlot.cells(
        salt: [UInt8](repeating: 1, count: 16), cost: SealCost.Level.interactive.cost,
        wrapped: Array(repeating: [UInt8](repeating: 2, count: 72), count: 32))
    static let message = F.message(pages: [
        Page(
            text: "", setA: [.sealedLocation(grid), .answer],
            sealed: SealedPage(ciphertext: [UInt8](repeating: 3, count: 296), slots: [.a: slot]))
    ])

    @Test func theAnswerIsKeptUncountedThenTriedWithTheCellAndBothLatch() throws {
        var engine = F.engine([F.stored(Self.message)])
        let reason = { engine.read(Self.message.id, now: F.now(9))?.pages[0].sets[0].locks.map(\.reason) }
        #expect(reason() == [.needsFix, .needsAnswerForPlace])
        // No answer yet: a cell is not tried.
        _ = engine.handle(.fix(F.fix(at: 1, Self.target), F.now(1)))
        #expect(EngineSealTests.requests(engine.handle(.fix(F.fix(at: 2, Self.target), F.now(2)))).isEmpty)
        let kept = engine.handle(EngineAnswerTests.answer(" ZYTGLOGGE ", F.now(3)).withMessage(Self.message.id))
        #expect(EngineAnswerTests.answers(kept) == [.kept])
        #expect(
            EngineAnswerTests.answers(kept).first?.text(for: "answer", timeZone: .utc)
                == "answer kept: it will be tried at each new place")
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
        #expect(engine.entries[Self.message.id]?.state.seal.keptAnswer(page: 1) == "zytglogge")
        let request = try #require(EngineSealTests.requests(kept).first)
        #expect(request.secret == "chest-v2|cell=\(Self.grid.cell(of: Self.target))|answer=zytglogge")
        _ = engine.handle(.keyDerived(request, .opened(Self.content), F.now(3.1)))
        #expect(engine.handle(.fix(F.fix(at: 3, Self.target), F.now(3.2))).unlocks == [1])
        #expect(engine.entries[Self.message.id]?.state.latched[LockKey(page: 1, set: .a, kind: .answer)] != nil)
    }
}

extension Engine.Input {
    /// The same request for another message.
    func withMessage(_ id: MessageID) -> Engine.Input {
        guard case let .request(client, .answer(_, text, page), now) = self else { return self }
        return .request(client, .answer(id: id.rawValue, text: text, page: page), now)
    }
}

/// The one normal form of answers (docs/FORMAT.md "Answer locks": the test vectors).
@Suite struct AnswerTextTests {
    @Test(arguments: [
        ("Zytglogge", "zytglogge"),
        ("  ZEITGLOCKEN\u{00A0}\u{3000}Turm\t\n", "zeitglocken turm"),
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("ΣΟΦΟΣ", "σοφοσ"),
        ("σοφος", "σοφοσ"),
        ("ﬁve", "five"),
        ("Ｚｙｔ２", "zyt2"),
        ("Cafe\u{0301}", "caf\u{00E9}"),
        ("İstanbul", "i\u{0307}stanbul"),
        ("Ⅻ", "xii"),
        ("a \u{2003} b", "a b"),
    ])
    func normalised(_ given: String, _ expected: String) {
        #expect(AnswerText.normalised(given) == expected)
        #expect(Array(AnswerText.normalised(given).utf8) == Array(expected.utf8))
    }

    @Test func alternativesAreNormalisedOnceEach() {
        #expect(AnswerText.alternatives("Zytglogge| zytglogge |Zeitglockenturm") == ["zytglogge", "zeitglockenturm"])
        #expect(AnswerText.problem("a|b|c|d|e|f|g|h|i")?.contains("at most 8 alternatives") == true)
        #expect(AnswerText.problem("oak||elm")?.contains("an alternative is empty") == true)
        #expect(AnswerText.problem("  ")?.contains("the answer is empty") == true)
        #expect(AnswerText.problem("Zytglogge|Zeitglockenturm") == nil)
    }

    @Test func theFileCarriesTheQuestionAndPointsAndRefusesWhatIsWrong() throws {
        var page = Page(text: "t")
        page.question = "Who?"
        page.points = 7
        let message = F.message(pages: [page])
        let read = try MessageFile.decode(MessageFile.encode(message))
        #expect(read.pages[0].question == "Who?")
        #expect(read.pages[0].points == 7)
        page.points = 1001
        #expect(throws: MessageFormatError.self) { try MessageFile.validate(F.message(pages: [page])) }
        // A page without them signs as before: neither field is written.
        let plain = String(decoding: MessageFile.signedBytes(of: F.message(pages: [Page(text: "t")])), as: UTF8.self)
        #expect(!plain.contains("question") && !plain.contains("points"))
    }
}
