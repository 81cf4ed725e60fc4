import FoundationEssentials
import Glibc

/// The answers of an answer lock, and the one normal form both sides compare them in (docs/FORMAT.md "Answer
/// locks"): what the organiser wrote and what the reader types key Argon2id only after this, so "  ZYTGLOGGE " and
/// "Zytglogge" are one answer.
package enum AnswerText {
    /// The longest answer, in Unicode scalars before normalising.
    package static let maximumLength = 200

    /// The normal form, in four steps a second implementation can repeat exactly:
    /// 1. Unicode NFKC;
    /// 2. each scalar replaced by its full, context-free Lowercase_Mapping (UnicodeData and the unconditional
    ///    SpecialCasing rules, no locale), then U+03C2 ς by U+03C3 σ and U+00DF ß by "ss";
    /// 3. NFKC again;
    /// 4. runs of White_Space scalars replaced by one U+0020, and none kept at either end.
    package static func normalised(_ text: String) -> String {
        var lowered = String.UnicodeScalarView()
        for scalar in text.compatibilityComposed.unicodeScalars {
            for mapped in scalar.properties.lowercaseMapping.unicodeScalars {
                switch mapped.value {
                case 0x03C2: lowered.append(Unicode.Scalar(0x03C3)!)
                case 0x00DF: lowered.append(contentsOf: "ss".unicodeScalars)
                default: lowered.append(mapped)
                }
            }
        }
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in String(lowered).compatibilityComposed.unicodeScalars {
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
    package static func alternatives(_ spec: String) -> [String] {
        var seen: Set<String> = []
        var answers: [String] = []
        for part in spec.split(separator: "|", omittingEmptySubsequences: false) {
            let answer = normalised(String(part))
            if seen.insert(answer).inserted { answers.append(answer) }
        }
        return answers
    }

    /// Why `answer=SPEC` cannot be sealed, or nil: 1 to `SealedPage.answerSlots` alternatives, each not blank, at most
    /// 200 characters, without control characters.
    package static func problem(_ spec: String) -> String? {
        let parts = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if parts.count > SealedPage.answerSlots {
            return "an answer lock takes at most \(SealedPage.answerSlots) alternatives, this one has \(parts.count)"
        }
        for part in parts {
            if normalised(part).isEmpty {
                return parts.count == 1
                    ? "the answer is empty; write answer=TEXT, such as answer=Zytglogge"
                    : "an alternative is empty; separate answers by single |, such as answer=Zytglogge|Zeitglockenturm"
            }
            if part.unicodeScalars.count > maximumLength {
                return "an answer has \(part.unicodeScalars.count) characters, over \(maximumLength)"
            }
            if let control = control(in: part) {
                return "an answer holds the control character \(control); write it as plain text"
            }
        }
        return nil
    }

    /// The first control or format character of `text` that is not white space (NUL, ESC, BEL, the right-to-left
    /// override U+202E, a zero-width space), written as U+XXXX; nil when it has none. No answer can hold one, so
    /// `chest answer` and chestd refuse such a text before it is counted as an attempt, and compose refuses it.
    package static func control(in text: String) -> String? {
        text.unicodeScalars.first {
            [.control, .format].contains($0.properties.generalCategory) && !$0.properties.isWhitespace
        }
        .map { String(printf: "U+%04X", $0.value) }
    }

    /// A rough count of the guesses an attacker with the file needs for the weakest of the alternatives, and what
    /// they look like (docs/SECURITY.md "What an answer is worth"): each answer is priced by the smallest space it
    /// lies in, so "a" is one of 36 and "no" one of 1,296, not one of a dictionary's words.
    package static func guesses(_ answers: [String]) -> (count: Double, shape: String) {
        answers.map(guessesOne).min { $0.count < $1.count } ?? (1, "nothing")
    }

    /// Every space a normalised answer lies in, and the smallest of them: N digits (10^N); N ASCII letters and digits
    /// (36^N), with spaces (37^N); one word (letters, `-`, `'`) of a dictionary; a phrase of such words (the
    /// dictionary, then 10,000 a further word: phrases are not random words); else 70^N (any sign).
    static func guessesOne(_ answer: String) -> (count: Double, shape: String) {
        let scalars = answer.unicodeScalars
        let length = Double(scalars.count)
        let n = scalars.count
        let plural = scalars.count == 1 ? "" : "s"
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            isDigit(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        var spaces: [(count: Double, shape: String)] = []
        if scalars.allSatisfy(isDigit) { spaces.append((pow(10, length), "a number of \(n) digit\(plural)")) }
        if scalars.allSatisfy(isASCIIAlphanumeric) {
            spaces.append((pow(36, length), "\(n) letter\(plural) or digit\(plural)"))
        }
        if scalars.allSatisfy({ isASCIIAlphanumeric($0) || $0 == " " }) {
            spaces.append((pow(37, length), "\(n) letters, digits or spaces"))
        }
        let words = answer.split(separator: " ")
        if words.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" || $0 == "'" } }) {
            spaces.append(
                words.count == 1
                    ? (dictionaryWords, "a word from a dictionary")
                    : (
                        dictionaryWords * pow(10_000, Double(words.count - 1)),
                        "a phrase of \(words.count) dictionary words"
                    ))
        }
        // The first of equal counts is the plainer shape: "a number of 2 digits" before "2 letters or digits".
        return spaces.reduce((pow(70, length), "\(n) letters, digits and signs")) { $1.count < $0.count ? $1 : $0 }
    }

    /// The dictionary a single word is priced against: a language's common words and names.
    package static let dictionaryWords = 100_000.0
}
