/// Help and usage lines, rendered from a command's declaration.
package enum HelpText {
    /// The usage line after the command's name, made from its parameters: positionals then options for a
    /// command, options then `COMMAND [ARGS]` for a program with subcommands.
    package static func synopsis(of command: any ParsableCommand.Type) -> String {
        let visible = command.parameters.filter { !$0.isHidden }
        let options = visible.filter { $0.isOption && $0.isInUsage }.map(optionUsage)
        let positionals = positionalUsage(visible.filter { !$0.isOption })
        let words = command.subcommands.isEmpty ? positionals + options : options + ["COMMAND [ARGS]"]
        return words.joined(separator: " ")
    }

    /// The full usage lines, such as `chest read ID [--json]`.
    package static func usageLines(of command: any ParsableCommand.Type, path: [String]) -> [String] {
        command.synopses.map { ([path.joined(separator: " ")] + ($0.isEmpty ? [] : [$0])).joined(separator: " ") }
    }

    /// The width help is wrapped to: the terminal's, at most 100 columns (longer lines read badly), or 80 when the
    /// output is not a terminal.
    package static let columns: Int = TerminalSize.ofStandardOutput().map { min(max($0.columns, 40), 100) } ?? 80

    /// `chest help read` and `chest read --help`, wrapped at `columns`. A discussion's lines are paragraphs, wrapped;
    /// of its indented lines, table rows are wrapped under their text and the others (examples to copy) kept whole.
    package static func help(for command: any ParsableCommand.Type, path: [String], columns: Int = columns) -> String {
        let commandWords = path.joined(separator: " ") + " "
        let usage = usageLines(of: command, path: path).enumerated().flatMap { index, line in
            let lead = index == 0 ? "usage: " : "       "
            return usageWrapped(lead + line, at: lead.count + commandWords.count, columns: columns)
        }
        var sections = [
            usage.joined(separator: "\n"), TextWrap.lines(command.abstract, columns: columns).joined(separator: "\n"),
        ]
        let parameters = command.parameters.filter { !$0.isHidden }
        let positionals = parameters.filter { !$0.isOption }.map { ($0.name, $0.help) }
        let options = (parameters.filter(\.isOption) + [helpParameter]).map { (optionLabel($0), $0.help) }
        let commands = command.subcommands.map { ($0.name, $0.abstract) }
        let width = (positionals + options + commands).map(\.0.count).max() ?? 0
        for (title, rows) in [("arguments", positionals), ("options", options), ("commands", commands)]
        where !rows.isEmpty {
            let lines = rows.flatMap { TextWrap.hanging(table(row: $0, width: width), at: width + 5, columns: columns) }
            sections.append(title + ":\n" + lines.joined(separator: "\n"))
        }
        if !command.discussion.isEmpty {
            let lines = command.discussion.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                line.first == " "
                    ? indented(String(line), columns: columns) : TextWrap.lines(String(line), columns: columns)
            }
            sections.append(lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    /// An indented line of a discussion: a table row (`  pin=DDDD   e.g. pin=4821 …`) wrapped under its text, any
    /// other (an example to copy) as written.
    static func indented(_ line: String, columns: Int) -> [String] {
        let characters = Array(line)
        let leading = characters.prefix { $0 == " " }.count
        // The text column: after the first run of two or more spaces that follows the label.
        guard
            let gap = (leading..<max(leading, characters.count - 1)).first(where: {
                characters[$0] == " " && characters[$0 + 1] == " "
            })
        else { return [line] }
        let column = gap + characters[gap...].prefix { $0 == " " }.count
        return column <= columns - 20 ? TextWrap.hanging(line, at: column, columns: columns) : [line]
    }

    /// A usage line wrapped at `columns` between its words, never inside `[--lock SPEC]`, the lines after the first
    /// indented under its first word after the command.
    static func usageWrapped(_ line: String, at column: Int, columns: Int) -> [String] {
        guard line.count > columns else { return [line] }
        var words: [String] = []
        var word = ""
        var depth = 0
        for character in line.dropFirst(column) {
            if character == " ", depth == 0 {
                words.append(word)
                word = ""
                continue
            }
            if "[(".contains(character) { depth += 1 } else if "])".contains(character) { depth -= 1 }
            word.append(character)
        }
        words.append(word)
        // `...` (more of what came before) stays with what it repeats.
        words = words.reduce(into: []) { merged, word in
            if word == "...", let last = merged.popLast() { merged.append(last + " ...") } else { merged.append(word) }
        }
        var lines = [String(line.prefix(column))]
        var indent = String(repeating: " ", count: column)
        for word in words where !word.isEmpty {
            let last = lines[lines.count - 1]
            if last.count + 1 + word.count > columns, last.count > column {
                lines.append(indent + word)
            } else {
                lines[lines.count - 1] += (last.count > column ? " " : "") + word
            }
        }
        return lines
    }

    /// `  -o, --output FILE   the message file to write`.
    static func table(row: (String, String), width: Int) -> String {
        "  " + row.0 + String(repeating: " ", count: width - row.0.count + 3) + row.1
    }

    /// `-o, --output FILE`: short aliases first.
    static func optionLabel(_ parameter: Parameter) -> String {
        let names = parameter.names.filter { !$0.hasPrefix("--") } + parameter.names.filter { $0.hasPrefix("--") }
        return names.joined(separator: ", ") + (parameter.valueName.map { " " + $0 } ?? "")
    }

    /// `[--count N]`, `[--lock SPEC]...`, `[-v]`: the short alias where there is one.
    static func optionUsage(_ parameter: Parameter) -> String {
        let name = parameter.names.first { !$0.hasPrefix("--") } ?? parameter.name
        let word = "[" + name + (parameter.valueName.map { " " + $0 } ?? "") + "]"
        return parameter.isRepeatable ? word + "..." : word
    }

    /// `ID PIN`, `FILE...`, `[KEY [VALUE]]`: optional positionals nest.
    static func positionalUsage(_ parameters: [Parameter]) -> [String] {
        var words: [String] = []
        var optionalTail = ""
        for parameter in parameters.reversed() {
            guard let arity = parameter.arity else { continue }
            let word = parameter.name + (arity.maximum > 1 ? "..." : "")
            if arity.minimum == 0 {
                optionalTail = "[" + word + (optionalTail.isEmpty ? "" : " " + optionalTail) + "]"
            } else {
                if !optionalTail.isEmpty { words.insert(optionalTail, at: 0) }
                optionalTail = ""
                words.insert(word, at: 0)
            }
        }
        return optionalTail.isEmpty ? words : [optionalTail] + words
    }
}
