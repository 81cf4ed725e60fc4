/// Text broken at spaces into lines for a terminal: help (`HelpText`) and the full-screen views.
package enum TextWrap {
    /// `text` in lines of at most `columns`, each after `indent`, broken at spaces (a word longer than a line is cut
    /// where the line ends). Each line of `text` is wrapped on its own.
    package static func lines(_ text: String, columns: Int, indent: String = "") -> [String] {
        let width = max(columns - indent.count, 8)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = Substring(word)
                if !line.isEmpty, line.count + 1 + word.count > width {
                    lines.append(indent + line)
                    line = ""
                }
                while word.count > width {
                    lines.append(indent + word.prefix(width))
                    word = word.dropFirst(width)
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            lines.append(indent + line)
        }
        return lines
    }

    /// `line` wrapped at `columns` with its first `column` characters (a label, a usage line's command) kept and the
    /// lines after it indented to that column: `  --page N   the page …` goes on under "the".
    package static func hanging(_ line: String, at column: Int, columns: Int) -> [String] {
        guard line.count > columns, column < line.count else { return [line] }
        let head = String(line.prefix(column))
        var lines = Self.lines(
            String(line.dropFirst(column)), columns: columns, indent: String(repeating: " ", count: column))
        lines[0] = head + lines[0].dropFirst(column)
        return lines
    }
}
