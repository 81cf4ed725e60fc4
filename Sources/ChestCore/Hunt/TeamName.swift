/// A team's name in the hunt file (docs/HUNTS.md "Team names"): 1 to 32 letters of any script, digits, spaces, - and
/// _, in Unicode's NFC, a topic level and the team's broker user, and neither "release" nor "organiser"
/// (`HuntTeam.isValidName`). Written as the name.
package struct TeamName: Hashable, Sendable, Comparable, TextCodable, CodingKeyRepresentable {
    /// The name as written.
    package let rawValue: String

    /// Accepts what `HuntTeam.isValidName` accepts: a name already in NFC, as one on the broker must be.
    package init?(_ text: String) {
        guard HuntTeam.isValidName(text) else { return nil }
        rawValue = text
    }

    /// A name as a person typed it: in NFC first (a terminal may hand "é" over as "e" and a combining accent).
    package init?(typed text: String) {
        self.init(text.canonicallyComposed)
    }

    package var description: String { rawValue }

    package static func < (a: TeamName, b: TeamName) -> Bool { a.rawValue < b.rawValue }

    /// What the rule allows, for the sentences that refuse a name.
    package static let rule =
        "1 to 32 letters (of any script), digits, spaces, - or _, with no space at either end or two together"

    package static func problem(reading text: String) -> String {
        "the team name \"\(TerminalText.escaped(text))\" is not \(rule), in Unicode's NFC (nor \"release\" or \"organiser\")"
    }

    /// A name that is not one is refused in the sentence the hunt file's checks say of it (`HuntFile.decode`).
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let name = TeamName(text) else { throw HuntError(Self.problem(reading: text)) }
        self = name
    }

    /// The rule without the reserved names: letters (general category L), digits (Nd), U+0020, - and _, and
    /// combining marks (M) after a letter, which many scripts write their letters with; 1 to 32 code points; no
    /// space at either end (Mosquitto's password and ACL files trim them) nor two together; NFC. Nothing a topic,
    /// a broker's files, a shell or a terminal reads as more than text: no MQTT wildcard or separator, no `:`, no
    /// control or invisible character (docs/HUNTS.md "Team names").
    static func isWellFormed(_ text: String) -> Bool {
        enum Last { case nothing, letter, space, other }
        var last = Last.nothing
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= 32 else { return false }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                last = .letter
            case .nonspacingMark, .spacingMark, .enclosingMark:
                guard last == .letter else { return false }
            case .decimalNumber: last = .other
            default:
                switch scalar {
                case " ":
                    guard last != .nothing, last != .space else { return false }
                    last = .space
                case "-", "_": last = .other
                default: return false
                }
            }
        }
        return last != .nothing && last != .space && text.isCanonicallyComposed
    }
}
