import ChestArguments
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// Issue 45, items 4 and 5 in compose and `chest answer`: every priced answer gets the game-lock sentence and its
/// true space; a control character is a usage mistake, never an attempt; points that no proof can credit are refused.
@Suite struct AnswerPriceSentenceTests {
    static let cost = SealCost.Secret.answer.cost

    @Test(arguments: [
        ("a", "1 letter or digit", "36 guesses"), ("no", "2 letters or digits", "1,296 guesses"),
        ("1234567", "a number of 7 digits", "10,000,000 guesses"),
        ("red bridge", "a phrase of 2 dictionary words", "1,000,000,000 guesses"),
        ("Kaspar's 7th bell, 1530", "23 letters, digits and signs", "guesses"),
    ])
    func everyAnswerIsPricedByItsSpaceWithTheGameLockSentence(answer: String, shape: String, guesses: String) {
        let (hours, sentence) = Composer.answerPrice([AnswerText.normalised(answer)], cost: Self.cost)
        #expect(sentence.hasPrefix("sealed by answer: \(shape),") && sentence.contains(guesses), "\(sentence)")
        #expect(sentence.contains("a game lock, not a secret"), "\(sentence)")
        #expect(
            abs(hours - AnswerText.guesses([AnswerText.normalised(answer)]).count * Self.cost.secondsPerGuess / 3600)
                < 1e-6)
    }

    /// Issue 61, finding 9: a phrase of dozens of words is priced past what a Double holds to the unit; its figures
    /// are written as powers of ten, never as the Double's noise digits ("1000000000000000052504760255204420248704…").
    @Test(arguments: [8, 40, 120])
    func aLongPhraseIsPricedInPowersOfTenNotNoise(words: Int) {
        let phrase = Array(repeating: "bell", count: words).joined(separator: " ")
        let (hours, sentence) = Composer.answerPrice([phrase], cost: Self.cost)
        #expect(sentence.firstMatch(of: /\d{16,}/) == nil, "\(sentence)")
        #expect(sentence.firstMatch(of: /\d,\d{3},\d{3},\d{3},\d{3},\d{3}/) == nil, "\(sentence)")
        let guesses = AnswerText.guesses([phrase]).count
        if guesses.isFinite {
            let exponent = Int(log10(guesses).rounded())
            #expect(sentence.contains("1.0 × 10^\(exponent) guesses"), "\(sentence)")
            #expect(sentence.contains(" × 10^") && sentence.contains("core-days"), "\(hours) \(sentence)")
        } else {
            #expect(sentence.contains("more than 10^308 guesses"), "\(sentence)")
        }
    }

    @Test(arguments: [
        (0.0, "0"), (1_296, "1,296"), (-1_234_567, "-1,234,567"), (999_999_999_999_999, "999,999,999,999,999"),
        (1e15, "1.0 × 10^15"), (1.23e60, "1.2 × 10^60"), (9.97e20, "1.0 × 10^21"), (.infinity, "more than 10^308"),
    ])
    func figuresAreGroupedUpTo10To15AndPowersOfTenPast(value: Double, text: String) {
        #expect(BruteForce.grouped(value) == text)
    }

    @Test func chestAnswerRefusesAControlCharacterAsAUsageMistake() throws {
        for text in ["zyt\u{0}glogge", "\u{1B}]0;owned\u{7}zytglogge", "\u{202E}eggolgtyz"] {
            let values = try ArgumentParser.parse(["answer", "0123456789abcdef", text], root: Chest.self).path.last!
            #expect(throws: UsageError.self) { try AnswerCommand(values) }
            do { _ = try AnswerCommand(values) } catch {
                #expect(error.description.contains("control character U+"), "\(error)")
            }
        }
        let plain = try ArgumentParser.parse(["answer", "0123456789abcdef", "Zeitglocken\tturm"], root: Chest.self).path
            .last!
        #expect(try AnswerCommand(plain).text == "Zeitglocken\tturm")
    }

    /// Item 4: points on a page that sends no proven receipt are refused with why and what to add.
    @Test func pointsThatNoProofCanCreditAreRefused() {
        let visible = PageSealer.SetDraft(locks: [
            .location(center: Coordinate(latitude: 46.2, longitude: 6.1), radius: 40)
        ])
        let pin = PageSealer.SetDraft(locks: [.sealedPIN])
        let none = PageSealer.SetDraft(locks: [])
        let open = Composer.unprovablePoints(3, sets: [none, none], page: 1, version: 3)
        #expect(
            open?.contains("page 1 is worth 3 points") == true && open?.contains("a page without locks") == true,
            "\(open ?? "")")
        let guarded = Composer.unprovablePoints(1, sets: [visible, none], page: 2, version: 3)
        #expect(
            guarded?.contains("page 2 is worth 1 point ") == true
                && guarded?.contains("proves only that the file was held") == true
                && guarded?.contains("a place without ,visible, a PIN, an answer or a release") == true,
            "\(guarded ?? "")")
        #expect(
            Composer.unprovablePoints(2, sets: [pin, visible], page: 1, version: 3)?.contains(
                "a set of it holds no secret") == true)
        #expect(Composer.unprovablePoints(5, sets: [pin, none], page: 1, version: 3) == nil)
        #expect(Composer.unprovablePoints(0, sets: [visible, none], page: 1, version: 3) == nil)
        #expect(
            Composer.unprovablePoints(nil, sets: [none, none], page: 1, version: 3) == nil,
            "the default is not the organiser's word")
    }
}
