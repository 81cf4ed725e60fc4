/// Text from a message file (a title, a sender's name, page text, a file name) made safe to show on a terminal
/// or in a log: control characters, which could clear the screen, set the window title, forge a hyperlink or
/// start a new log line, are written out as escapes instead (docs/DESIGN.md "Reliability and security").
public enum TerminalText {
    /// `text` with every C0 and C1 control character and DEL escaped: `\n`, `\r`, `\t`, `\e`, else `\u{…}`.
    /// With `keepingNewlines`, "\n" stays a line break (page text, which the caller indents line by line).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingNewlines && $0 == "\n") }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar), !(keepingNewlines && scalar == "\n") else {
                result.append(scalar)
                continue
            }
            let escape: String = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{1B}": "\\e"
            default: "\\u{" + String(scalar.value, radix: 16) + "}"
            }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    /// C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F, where a lone U+009B starts an escape sequence too).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
