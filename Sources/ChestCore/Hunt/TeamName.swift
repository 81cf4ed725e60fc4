/// A team's name in the hunt file (docs/HUNTS.md "Hunt files"): `[A-Za-z0-9_-]{1,32}`, a topic level and the team's
/// broker user, and neither "release" nor "organiser" (`HuntTeam.isValidName`). Written as the name.
public struct TeamName: Hashable, Sendable, Comparable, TextCodable, CodingKeyRepresentable {
    /// The name as written.
    public let rawValue: String

    /// Accepts what `HuntTeam.isValidName` accepts.
    public init?(_ text: String) {
        guard HuntTeam.isValidName(text) else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }

    public static func < (a: TeamName, b: TeamName) -> Bool { a.rawValue < b.rawValue }

    public static func problem(reading text: String) -> String {
        "the team name \"\(TerminalText.escaped(text))\" is not 1 to 32 letters, digits, - or _ (nor \"release\" or \"organiser\")"
    }

    /// A name that is not one is refused in the sentence the hunt file's checks say of it (`HuntFile.decode`).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let name = TeamName(text) else { throw HuntError(Self.problem(reading: text)) }
        self = name
    }
}
