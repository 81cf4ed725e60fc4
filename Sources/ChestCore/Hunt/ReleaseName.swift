/// The name of a release (docs/HUNTS.md "Messages on the broker"): `[A-Za-z0-9_-]{1,32}`, an MQTT topic level. A
/// release lock's name (`--lock release=NAME`) or the hunt's start key, `_start`. The organiser's hunt file keys
/// its release keys by it, written as the name.
package struct ReleaseName: Hashable, Sendable, Comparable, TextCodable, CodingKeyRepresentable {
    /// The name as written.
    package let rawValue: String

    /// Accepts what `HuntRelease.isValidName` accepts.
    package init?(_ text: String) {
        guard HuntRelease.isValidName(text) else { return nil }
        rawValue = text
    }

    /// The hunt's start key (`HuntRelease.startName`).
    package static let start = ReleaseName(HuntRelease.startName)!

    package var description: String { rawValue }

    package static func < (a: ReleaseName, b: ReleaseName) -> Bool { a.rawValue < b.rawValue }

    /// Why `text` is not a release name: what the hunt file's reader says.
    package static func problem(reading text: String) -> String {
        "the release name \"\(TerminalText.escaped(text))\" is not 1 to 32 letters, digits, - or _"
    }
}
