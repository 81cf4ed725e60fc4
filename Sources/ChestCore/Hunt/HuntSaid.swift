import FoundationEssentials

/// The organiser's word to every team (`chest hunt say`, docs/HUNTS.md "Word to all teams").
public struct HuntSaid: Codable, Hashable, Sendable {
    public static let maximumLength = 500

    /// 1 to 500 printable characters (line breaks allowed).
    public var text: String

    public init(text: String) {
        self.text = text
    }

    /// Why `text` cannot be said, in a sentence; nil when it can.
    public static func problem(_ text: String) -> String? {
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
