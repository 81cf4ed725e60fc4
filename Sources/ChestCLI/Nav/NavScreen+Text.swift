import ChestCore
import FoundationEssentials

/// Lines cut to the terminal: in a title, never in "page N"; escapes kept whole.
extension NavScreen {
    /// A line cut to `columns` in its first quoted title (“…” or "…"), not at its end: "page 3 is open" stays.
    static func cutQuoted(_ line: String, _ columns: Int) -> String {
        let excess = withoutEscapes(line).count - columns
        guard excess > 0 else { return line }
        let characters = Array(line)
        guard let open = characters.firstIndex(where: { $0 == "\u{201C}" || $0 == "\"" }) else { return line }
        let closer: Character = characters[open] == "\u{201C}" ? "\u{201D}" : "\""
        guard let close = characters[(open + 1)...].firstIndex(of: closer) else { return line }
        let inner = close - open - 1
        let keep = max(inner - excess - 1, 3)
        guard keep < inner else { return line }
        return String(characters[...open]) + String(characters[(open + 1)..<(open + 1 + keep)]) + "…"
            + String(characters[close...])
    }

    /// `text` cut to `width` characters, with "…" when it was longer.
    static func shortened(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(width, 0))) }
        return String(text.prefix(width - 1)) + "…"
    }

    static func fit(_ left: String, _ right: String, _ columns: Int) -> String {
        let gap = columns - left.count - right.count
        return gap >= 1 ? left + String(repeating: " ", count: gap) + right : left
    }

    /// The line without its escape sequences, for a pipe.
    static func withoutEscapes(_ line: String) -> String {
        var result = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            result.append(character)
        }
        return result
    }

    /// Cuts a line to the width, not counting escape sequences.
    static func clip(_ line: String, _ columns: Int) -> String {
        var visible = 0
        var result = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            guard visible < columns else { continue }
            result.append(character)
            visible += 1
        }
        return result
    }
}
