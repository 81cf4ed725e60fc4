import ChestCore

/// Text made safe for HTML and SVG, in element content and in quoted attribute values alike: whatever a team or a
/// message brings (names, titles, refusal reasons) goes through here, so `<script>` shows as text.
enum HTML {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // Control characters have no business on the page (a terminal escape, a NUL): shown as a replacement.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": result += "\u{FFFD}"
            // A right-to-left override or another invisible format character would reorder or hide what the board
            // shows ("red" made to read as another team's line): written out, as the terminal does.
            case _ where TerminalText.isFormat(scalar): result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text a team or a message brings, escaped and isolated, so right-to-left words in it cannot reorder the line.
    static func isolated(_ text: String) -> String { "<bdi>\(escaped(text))</bdi>" }
}
