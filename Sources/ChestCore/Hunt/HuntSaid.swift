import FoundationEssentials

/// The organiser's word to every team (`chest hunt say`, docs/HUNTS.md "Word to all teams").
package struct HuntSaid: Codable, Hashable, Sendable {
    package static let maximumLength = 500

    /// 1 to 500 printable characters (line breaks allowed).
    package var text: String

    package init(text: String) {
        self.text = text
    }

    /// Why `text` cannot be said, in a sentence naming it as `what`; nil when it can.
    package static func problem(_ text: String, what: String = "the word to the teams") -> String? {
        guard !text.trimmed().isEmpty else { return "\(what) is empty" }
        guard text.count <= maximumLength else {
            return "\(what) is \(text.count) characters; at most \(maximumLength) are sent"
        }
        guard !text.unicodeScalars.contains(where: { $0 != "\n" && TerminalText.isControl($0) }) else {
            return "\(what) has control characters; write plain text (line breaks are fine)"
        }
        return nil
    }
}
