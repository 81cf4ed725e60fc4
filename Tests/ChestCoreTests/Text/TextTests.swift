import ChestCore
import Foundation
import Testing

/// What the full Foundation gave for text, without it (Sources/ChestCore/Text/): the same bytes as before.
struct TextTests {
    @Test(arguments: [0.05, 0.15, 0.25, 2.675, -0.5, 1e22, 46.947_974_5, .nan, -.infinity])
    func printfWritesWhatStringFormatWrote(_ value: Double) {
        for format in ["%.1f", "%.2f", "%.6f", "%g", "%12.0f", "%03.0f°"] {
            #expect(String(printf: format, value) == String(format: format, value))
        }
    }

    @Test func printfTakesIntegersAndLongResults() {
        #expect(String(printf: "%d:%02d:%02d", 1, 2, 3) == "1:02:03")
        #expect(String(printf: "U+%04X %02x", 0x1F600, 255) == "U+1F600 ff")
        let long = String(printf: "%0300d", 7)
        #expect(long.count == 300 && long.hasSuffix("07") && long.hasPrefix("000"))
    }

    @Test(arguments: ["  a b \t", "\n\r a\u{2028}", "\u{00A0}\u{3000}x\u{85}", "", " \t ", "é\u{0301} ", "\u{200B}a"])
    func trimmingRemovesWhatFoundationsSetsRemoved(_ text: String) {
        #expect(text.trimmed() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingNewlines() == text.trimmingCharacters(in: .newlines))
    }

    @Test(arguments: ["ﬁ", "Ｚytglogge", "e\u{0301}", "Å", "ℌ𝔢𝔩𝔩𝔬", "Straße", "ǅ", "한국어", "①②", ""])
    func normalFormsAreTheOnesFoundationGave(_ text: String) {
        #expect(
            text.compatibilityComposed.unicodeScalars.elementsEqual(
                text.precomposedStringWithCompatibilityMapping.unicodeScalars))
        #expect(
            text.canonicallyComposed.unicodeScalars.elementsEqual(
                text.precomposedStringWithCanonicalMapping.unicodeScalars))
    }
}
