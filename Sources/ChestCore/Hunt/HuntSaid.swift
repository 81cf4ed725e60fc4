import FoundationEssentials

/// The organiser's word to every team (`chest hunt say`, docs/HUNTS.md "Word to all teams").
package struct HuntSaid: Codable, Hashable, Sendable {
    package static let maximumLength = 500

    /// 1 to 500 printable characters (line breaks allowed).
    package var text: String

    package init(text: String) {
        self.text = text
    }

    /// Why `text` cannot be said, in a sentence; nil when it can.
    package static func problem(_ text: String) -> String? {
        guard !text.trimmed().isEmpty else { return "the word to the teams is empty" }
        guard text.count <= maximumLength else {
            return "the word to the teams is \(text.count) characters; at most \(maximumLength) are sent"
        }
        guard !text.unicodeScalars.contains(where: { $0 != "\n" && TerminalText.isControl($0) }) else {
            return "the word to the teams has control characters; write plain text (line breaks are fine)"
        }
        return nil
    }
}
