/// Text from a message file (a title, a sender's name, page text, a file name) made safe to show on a terminal
/// or in a log: control characters, which could clear the screen, set the window title, forge a hyperlink or
/// start a new log line, and invisible format characters, which could reorder what is shown (RLO makes
/// "Organiser\u{202E}resinagrO" look like another name) or hide a difference, are written out as escapes instead
/// (docs/DESIGN.md "Reliability and security").
package enum TerminalText {
    /// `text` with every C0 and C1 control character, DEL and format character (`isFormat`) escaped: `\n`, `\r`,
    /// `\t`, `\e`, else `\u{…}`. With `keepingNewlines`, "\n" stays a line break (page text, which the caller
    /// indents line by line).
    package static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool {
            (isControl(scalar) || isFormat(scalar)) && !(keepingNewlines && scalar == "\n")
        }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard escapes(scalar) else {
                result.append(scalar)
                continue
            }
            let escape: String =
                switch scalar {
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

    /// Unicode's format characters (general category Cf): the bidirectional controls (U+202A–U+202E, U+2066–U+2069,
    /// U+200E, U+200F, U+061C), zero-width spaces and joiners' relatives, the BOM, the soft hyphen. Kept: U+200C and
    /// U+200D (zero-width non-joiner and joiner, which Persian, Indic scripts and emoji sequences need) and the tag
    /// characters (U+E0020–U+E007F, which spell subdivision flags).
    package static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.generalCategory == .format else { return false }
        return scalar.value != 0x200C && scalar.value != 0x200D && !(0xE0020...0xE007F).contains(scalar.value)
    }

    /// C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F, where a lone U+009B starts an escape sequence too).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
