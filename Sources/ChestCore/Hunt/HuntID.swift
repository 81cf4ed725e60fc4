/// A hunt's ID (docs/HUNTS.md "Hunt files"): 32 lowercase hex characters (16 random bytes made by `chest hunt
/// create`). The hunt file's `id`, every envelope's `hunt`, the receipt ledger's and the second level of every topic.
package struct HuntID: Hashable, Sendable, Comparable, TextCodable {
    /// The 32 hex characters.
    package let rawValue: String

    /// Accepts exactly 32 lowercase hex characters.
    package init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy(\.isLowerHex) else { return nil }
        rawValue = text
    }

    package var description: String { rawValue }

    /// The first 8 characters: a client ID's part.
    package var short: String { String(rawValue.prefix(8)) }

    package static func < (a: HuntID, b: HuntID) -> Bool { a.rawValue < b.rawValue }

    package static func problem(reading text: String) -> String {
        "\"\(TerminalText.escaped(text))\" is not a hunt ID: the hunt's id must be 32 lowercase hex characters"
    }
}
