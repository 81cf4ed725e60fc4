import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore
@testable import ChestSeal

/// The attack on an answer page from the file alone (docs/SECURITY.md "What an answer is worth"), run for real at a
/// cheap Argon2id cost: nothing of the text or the answers is in the file, the count of answers does not show, and
/// only guessing opens it: a dictionary search finds a dictionary word, one derivation a guess, as compose prices it.
@Suite struct AnswerAttackTests {
    static let cheap = SealCost(passes: 1, memory: 64 << 10)
    static let text = "Under the astronomical clock, ask for Kaspar."

    static func seal(_ spec: String) -> (id: MessageID, page: Page, set: PageSealer.SetDraft) {
        var set = PageSealer.SetDraft(locks: [.answer])
        set.answers = AnswerText.alternatives(spec)
        let id = MessageID(bytes: Sealer.randomBytes(16))
        return (id, PageSealer.seal(text: text, setA: set, setB: .init(locks: []), id: id, page: 1, cost: cheap), set)
    }

    /// Whoever has the file tries each candidate: normalise, derive once, try every wrapped key.
    static func search(_ page: Page, id: MessageID, candidates: [String]) -> (tries: Int, found: String?) {
        guard case let .answers(salt, cost, wrapped)? = page.sealed?.slots[.a] else { return (0, nil) }
        let data = SealSecret.slotData(id, page: 1, set: .a, version: 3)
        for (index, candidate) in candidates.enumerated() {
            let secret = SealSecret.secret(cell: nil, pin: nil, answer: AnswerText.normalised(candidate), version: 3)
            let kek = PageSealer.derive(secret, salt: salt, cost: cost)!
            for key in wrapped {
                guard let pageKey = PageSealer.decrypt(key, key: kek, data: data),
                    let plaintext = PageSealer.decrypt(
                        page.sealed!.ciphertext, key: pageKey, data: SealSecret.contentData(id, page: 1, version: 3)),
                    SealedContent.decode(plaintext)?.text == text
                else { continue }
                return (index + 1, candidate)
            }
        }
        return (candidates.count, nil)
    }

    static let dictionary = [
        "Aare", "Bahnhof", "Bärengraben", "Bundeshaus", "Gurten", "Käfigturm", "Kornhaus", "Marzili",
        "Münster", "Nydegg", "Rosengarten", "Zytglogge", "Zähringer",
    ]

    @Test func theFileHoldsNoTextNoAnswerAndAlwaysEightKeys() throws {
        for spec in ["Zytglogge", "Zytglogge|Zeitglockenturm|Zitglogge"] {
            let (id, page, _) = Self.seal(spec)
            let directory = NSTemporaryDirectory() + "answer-attack-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let identity = try Identity.loadOrCreate(at: directory + "/identity.json")
            var clear = page
            clear.question = "What is Bern's clock tower called?"
            let message = Sealer.seal(
                Message(id: id, title: "t", from: "f", created: Date(), pages: [clear]), with: identity)
            let bytes = String(decoding: MessageFile.encode(message), as: UTF8.self).lowercased()
            for secret in ["astronomical", "kaspar", "zytglogge", "zeitglockenturm", "zitglogge"] {
                #expect(!bytes.contains(secret), "\(secret)")
            }
            #expect(bytes.contains("what is bern's clock tower called?"))
            // One, or three answers: eight keys of one size either way.
            guard case let .answers(_, _, wrapped)? = page.sealed?.slots[.a] else {
                Issue.record("no answers slot")
                return
            }
            #expect(wrapped.count == SealedPage.answerSlots)
            #expect(Set(wrapped.map(\.count)) == [SealedPage.wrappedBytes])
            let decoded = try MessageFile.decode(MessageFile.encode(message))
            #expect(decoded.pages == message.pages)
            try Sealer.verify(decoded)
        }
    }

    @Test func everyAlternativeInAnyWritingOpensAndNothingElseDoes() {
        let (id, page, _) = Self.seal("Zytglogge|Zeitglockenturm")
        for given in [
            "zytglogge", "  ZYTGLOGGE ", "Ｚｙｔｇｌｏｇｇｅ",
            "Zeitglocken\u{00A0}turm".replacingOccurrences(of: "\u{00A0}", with: ""),
            "ZEITGLOCKENTURM",
        ] {
            let request = KeyRequest(id: id, page: 1, set: .a, of: page.sealed!, answer: AnswerText.normalised(given))!
            #expect(PageSealer.open(request) == .opened(SealedContent(text: Self.text)), "\(given)")
        }
        for given in ["Zytglog", "Zeitglocken turm", "Zytglogge Zeitglockenturm", ""] {
            let request = KeyRequest(id: id, page: 1, set: .a, of: page.sealed!, answer: AnswerText.normalised(given))!
            #expect(PageSealer.open(request) == .wrong, "\(given)")
        }
        // The right answer for another page or message opens nothing.
        let moved = KeyRequest(
            id: MessageID(bytes: Sealer.randomBytes(16)), page: 1, set: .a, of: page.sealed!, answer: "zytglogge")!
        #expect(PageSealer.open(moved) == .wrong)
    }

    @Test func aDictionarySearchFindsADictionaryWordOneDerivationAGuessAsComposePrices() {
        let (id, page, set) = Self.seal("Zytglogge")
        let (tries, found) = Self.search(page, id: id, candidates: Self.dictionary)
        #expect(found == "Zytglogge")
        #expect(tries == Self.dictionary.firstIndex(of: "Zytglogge")! + 1)
        // compose's figure: a word from a dictionary, 100,000 guesses at the set's cost.
        let (hours, sentence) = Composer.answerPrice(set.answers, cost: SealCost.Secret.answer.cost)
        #expect(sentence.hasPrefix("sealed by answer: a word from a dictionary"), "\(sentence)")
        let perGuess = String(format: "%.2f", SealCost.Secret.answer.cost.secondsPerGuess)
        #expect(sentence.contains("100,000 guesses at \(perGuess) s a guess"), "\(sentence)")
        #expect(abs(hours - AnswerText.dictionaryWords * SealCost.Secret.answer.cost.secondsPerGuess / 3600) < 0.001)
        #expect(sentence.contains("minutes for whoever can guess it from the question"), "\(sentence)")
        #expect(Composer.protectionSentence(page, sets: [set, .init(locks: [])]) == sentence)
    }

    @Test func anAnswerOutsideTheDictionaryIsNotFoundByIt() {
        let (id, page, set) = Self.seal("Kaspar's 7th bell, 1530")
        let (tries, found) = Self.search(page, id: id, candidates: Self.dictionary)
        #expect(found == nil && tries == Self.dictionary.count)
        #expect(AnswerText.guesses(set.answers).count > AnswerText.dictionaryWords * 1e6)
        #expect(
            Composer.answerPrice(set.answers, cost: SealCost.Secret.answer.cost).sentence.contains(
                "still no stronger than what the question gives away"))
    }
}

/// An answer paired with a sealed place (docs/SECURITY.md "What an answer is worth"): one key of both, 32 keys in the
/// file, and the attack must try every answer in every cell.
@Suite struct AnswerWithPlaceTests {
    @Test func onlyTheRightCellWithTheRightAnswerOpensAndComposePricesBoth() throws {
        let area = SearchArea(center: Coordinate(latitude: 46.948, longitude: 7.4474), radius: 564)
        let point = Coordinate(latitude: 46.94797, longitude: 7.44745)
        let (grid, salt) = SealGrids().grid(for: point, radius: 30, declared: area)
        var set = PageSealer.SetDraft(
            locks: [.sealedLocation(grid), .answer], hidden: SearchArea(center: point, radius: 30))
        set.answers = AnswerText.alternatives("Zytglogge|Zeitglockenturm")
        set.gridSalt = salt
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let page = PageSealer.seal(
            text: AnswerAttackTests.text, setA: set, setB: .init(locks: []), id: id, page: 1,
            cost: AnswerAttackTests.cheap)
        guard case let .cells(_, _, wrapped)? = page.sealed?.slots[.a] else {
            Issue.record("no cells slot")
            return
        }
        #expect(wrapped.count == SealedPage.cellSlots * SealedPage.answerSlots)
        let decoded = try MessageFile.decode(
            MessageFile.encode(
                Message(
                    id: id, title: "t", from: "f", created: Date(), pages: [page],
                    seal: Seal(
                        publicKey: [UInt8](repeating: 1, count: 32),
                        signature: [UInt8](repeating: 2, count: 64)))))
        #expect(decoded.pages[0].setA == [.sealedLocation(grid), .answer])
        let cell = grid.cell(of: point)
        func open(_ cell: Cell, _ answer: String) -> KeyResult {
            PageSealer.open(
                KeyRequest(
                    id: id, page: 1, set: .a, of: page.sealed!, cell: cell, answer: AnswerText.normalised(answer))!)
        }
        guard case .opened = open(cell, "ZEITGLOCKENTURM") else {
            Issue.record("the right cell and answer did not open")
            return
        }
        #expect(open(cell, "Big Ben") == .wrong)
        #expect(open(Cell(x: cell.x + 5, y: cell.y), "Zytglogge") == .wrong)
        let place = BruteForce(grid: grid, pinDigits: nil, cost: SealCost.Secret.placeAndAnswer.cost)
        let (hours, sentence) = Composer.answerPrice(
            set.answers, cost: SealCost.Secret.placeAndAnswer.cost, place: place)
        #expect(
            abs(
                hours - place.searched * AnswerText.dictionaryWords
                    * SealCost.Secret.placeAndAnswer.cost.secondsPerGuess / 3600) < 0.01)
        #expect(sentence.hasPrefix("sealed by location and answer: about"), "\(sentence)")
        #expect(
            sentence.contains(
                "× 100,000 answers like the weakest, a word from a dictionary (the weakest of 2 answers)"),
            "\(sentence)")
        #expect(
            sentence.contains("the answer alone is a game lock, not a secret"),
            "every answer priced says it (issue 45): \(sentence)")
    }
}
