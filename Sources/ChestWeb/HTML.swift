import ChestCore

/// Text made safe for HTML and SVG, in element content and in quoted attribute values alike: whatever a team or a
/// message brings (names, titles, refusal reasons) goes through here, so `<script>` shows as text.
enum HTML {
    static func escaped(_ text: String) -> String {
        // Most of what the page shows is plain ASCII (team names, numbers, times): as it is, without asking each
        // character's Unicode category, which was most of rendering 5,000 rows (docs/BENCHMARKS.md "A city").
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && !Self.special.contains($0) }) { return text }
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

    /// The ASCII characters `escaped` replaces.
    private static let special: Set<UInt8> = [
        UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"),
    ]

    /// Text a team or a message brings, escaped and isolated, so right-to-left words in it cannot reorder the line.
    static func isolated(_ text: String) -> String { "<bdi>\(escaped(text))</bdi>" }
}
