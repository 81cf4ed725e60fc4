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
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A team's colour on the map and beside its name: hues spread by the golden angle, so neighbours differ.
    static func colour(teamIndex: Int) -> String {
        let hue = (Double(teamIndex) * 137.508).truncatingRemainder(dividingBy: 360)
        return "hsl(\(Int(hue)), 70%, 45%)"
    }
}
