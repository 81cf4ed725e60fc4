/// A team's name in the hunt file (docs/HUNTS.md "Hunt files"): `[A-Za-z0-9_-]{1,32}`, a topic level and the team's
/// broker user, and neither "release" nor "organiser" (`HuntTeam.isValidName`). Written as the name.
package struct TeamName: Hashable, Sendable, Comparable, TextCodable, CodingKeyRepresentable {
    /// The name as written.
    package let rawValue: String

    /// Accepts what `HuntTeam.isValidName` accepts.
    package init?(_ text: String) {
        guard HuntTeam.isValidName(text) else { return nil }
        rawValue = text
    }

    package var description: String { rawValue }

    package static func < (a: TeamName, b: TeamName) -> Bool { a.rawValue < b.rawValue }

    package static func problem(reading text: String) -> String {
        "the team name \"\(TerminalText.escaped(text))\" is not 1 to 32 letters, digits, - or _ (nor \"release\" or \"organiser\")"
    }

    /// A name that is not one is refused in the sentence the hunt file's checks say of it (`HuntFile.decode`).
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let name = TeamName(text) else { throw HuntError(Self.problem(reading: text)) }
        self = name
    }
}
