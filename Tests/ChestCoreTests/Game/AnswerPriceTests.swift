import Foundation
import Testing

@testable import ChestCore

/// Issue 45, item 5: an answer is priced by the smallest space it lies in (docs/SECURITY.md "What an answer is
/// worth"), and a text with a control character is no answer.
@Suite struct AnswerPriceTests {
    @Test(arguments: [
        ("a", 36.0, "1 letter or digit"),
        ("no", 1_296, "2 letters or digits"),
        ("abc", 46_656, "3 letters or digits"),
        ("clock", 100_000, "a word from a dictionary"),
        ("zytglogge", 100_000, "a word from a dictionary"),
        ("1234567", 10_000_000, "a number of 7 digits"),
        ("4821", 10_000, "a number of 4 digits"),
        ("a1", 1_296, "2 letters or digits"),
        ("red bridge", 1e9, "a phrase of 2 dictionary words"),
        ("x y", 50_653, "3 letters, digits or spaces"),
        ("zürich", 100_000, "a word from a dictionary"),
    ])
    func eachAnswerIsPricedByTheSmallestSpaceItLiesIn(answer: String, guesses: Double, shape: String) {
        let priced = AnswerText.guesses([AnswerText.normalised(answer)])
        #expect(priced.count == guesses && priced.shape == shape, "\(answer): \(priced)")
    }

    @Test func theWeakestAlternativeSetsThePrice() {
        #expect(AnswerText.guesses(AnswerText.alternatives("Zytglogge|no")).count == 1_296)
        #expect(AnswerText.guesses(AnswerText.alternatives("Kaspar's 7th bell, 1530")).count == pow(70, 23))
    }

    @Test(arguments: ["a\u{0}b", "\u{1B}[31mred", "bell\u{7}", "\u{202E}egglgotyz", "zyt\u{200B}glogge"])
    func anAnswerWithAControlCharacterIsRefused(text: String) {
        #expect(AnswerText.control(in: text) != nil)
        #expect(AnswerText.problem("oak|" + text)?.contains("control character U+") == true)
    }

    @Test func whiteSpaceIsNoControlCharacter() {
        #expect(AnswerText.control(in: "Zeitglocken\tTurm\n") == nil && AnswerText.control(in: "Zytglogge") == nil)
        #expect(AnswerText.control(in: "\u{1B}x") == "U+001B" && AnswerText.control(in: "\u{202E}") == "U+202E")
    }
}
