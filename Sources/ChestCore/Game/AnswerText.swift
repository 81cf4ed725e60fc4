import Foundation

/// The answers of an answer lock, and the one normal form both sides compare them in (docs/FORMAT.md "Answer
/// locks"): what the organiser wrote and what the reader types key Argon2id only after this, so "  ZYTGLOGGE " and
/// "Zytglogge" are one answer.
public enum AnswerText {
    /// The longest answer, in Unicode scalars before normalising.
    public static let maximumLength = 200

    /// The normal form, in four steps a second implementation can repeat exactly:
    /// 1. Unicode NFKC;
    /// 2. each scalar replaced by its full, context-free Lowercase_Mapping (UnicodeData and the unconditional
    ///    SpecialCasing rules, no locale), then U+03C2 ς by U+03C3 σ and U+00DF ß by "ss";
    /// 3. NFKC again;
    /// 4. runs of White_Space scalars replaced by one U+0020, and none kept at either end.
    public static func normalised(_ text: String) -> String {
        var lowered = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            for mapped in scalar.properties.lowercaseMapping.unicodeScalars {
                switch mapped.value {
                case 0x03C2: lowered.append(Unicode.Scalar(0x03C3)!)
                case 0x00DF: lowered.append(contentsOf: "ss".unicodeScalars)
                default: lowered.append(mapped)
                }
            }
        }
        var words: [String] = [], word = String.UnicodeScalarView()
        for scalar in String(lowered).precomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !word.isEmpty { words.append(String(word)) }
                word = String.UnicodeScalarView()
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words.joined(separator: " ")
    }

    /// The alternatives of `answer=A|B|C`, normalised, without repeats, in the organiser's order.
    public static func alternatives(_ spec: String) -> [String] {
        var seen: Set<String> = [], answers: [String] = []
        for part in spec.split(separator: "|", omittingEmptySubsequences: false) {
            let answer = normalised(String(part))
            if seen.insert(answer).inserted { answers.append(answer) }
        }
        return answers
    }

    /// Why `answer=SPEC` cannot be sealed, or nil: 1 to `SealedPage.answerSlots` alternatives, each not blank, at most
    /// 200 characters, without control characters.
    public static func problem(_ spec: String) -> String? {
        let parts = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if parts.count > SealedPage.answerSlots {
            return "an answer lock takes at most \(SealedPage.answerSlots) alternatives, this one has \(parts.count)"
        }
        for part in parts {
            if normalised(part).isEmpty {
                return parts.count == 1 ? "the answer is empty; write answer=TEXT, such as answer=Zytglogge"
                    : "an alternative is empty; separate answers by single |, such as answer=Zytglogge|Zeitglockenturm"
            }
            if part.unicodeScalars.count > maximumLength {
                return "an answer has \(part.unicodeScalars.count) characters, over \(maximumLength)"
            }
            if part.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) && !$0.properties.isWhitespace }) {
                return "an answer holds a control character; write it as plain text"
            }
        }
        return nil
    }

    /// A rough count of the guesses an attacker with the file needs for the weakest of the alternatives, and what
    /// they look like (docs/SECURITY.md "What an answer is worth"): digits are 10 a digit; a single word is taken
    /// from a dictionary of 100,000 words and names; more words multiply by 10,000 each (phrases are not random
    /// words); anything else by the characters it is made of.
    public static func guesses(_ answers: [String]) -> (count: Double, shape: String) {
        answers.map(guessesOne).min { $0.count < $1.count } ?? (1, "nothing")
    }

    private static func guessesOne(_ answer: String) -> (count: Double, shape: String) {
        let scalars = answer.unicodeScalars
        if scalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return (pow(10, Double(scalars.count)), "a number of \(scalars.count) digit\(scalars.count == 1 ? "" : "s")")
        }
        let words = answer.split(separator: " ")
        if words.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" || $0 == "'" } }) {
            if words.count == 1 { return (dictionaryWords, "a word from a dictionary") }
            return (dictionaryWords * pow(10_000, Double(words.count - 1)), "\(words.count) words")
        }
        let alphabet: Double = scalars.contains { !$0.isASCII || !($0.properties.isAlphabetic || ("0"..."9").contains($0)) } ? 70 : 36
        return (pow(alphabet, Double(scalars.count)), "\(scalars.count) letters, digits and signs")
    }

    /// The dictionary a single word is priced against: a language's common words and names.
    public static let dictionaryWords = 100_000.0
}
