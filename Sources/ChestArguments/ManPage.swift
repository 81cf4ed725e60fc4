/// The command reference of a man page, in roff, made from the same declarations as the help: the program's
/// options, then one `.SS` per command and subcommand with its usage lines, what it does (its abstract and
/// discussion) and its arguments and options. `chest --generate-man-page` prints it; `make man` puts it between the
/// two marker lines of docs/man/chest.1, whose other sections are written by hand.
package enum ManPage {
    package static let beginMarker = #".\" BEGIN GENERATED COMMANDS"#
    package static let endMarker = #".\" END GENERATED COMMANDS"#

    /// The generated part, the two marker lines included: `.SH OPTIONS` (the program's own) and `.SH COMMANDS`.
    package static func reference(for root: any ParsableCommand.Type) -> String {
        var lines = [
            beginMarker,
            #".\" Made by `\#(root.name) --generate-man-page` from the commands' declarations (their abstract, discussion"#,
            #".\" and parameters, as `\#(root.name) help COMMAND` prints them): edit those, then run `make man`."#,
        ]
        lines += [".SH OPTIONS", "These come before the command."]
        lines += parameterList(root.parameters.filter { !$0.isHidden } + [helpParameter])
        lines.append(".SH COMMANDS")
        for subcommand in root.subcommands {
            lines += section(subcommand, path: [root.name, subcommand.name])
        }
        lines.append(endMarker)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `.SS "chest hunt team add"` and what follows it, then the sections of its subcommands.
    static func section(_ command: any ParsableCommand.Type, path: [String]) -> [String] {
        var lines = [".SS " + quoted(path.joined(separator: " "))]
        // The usage lines, each hanging under its first word.
        lines.append(".in +4n")
        for (index, usage) in HelpText.usageLines(of: command, path: path).enumerated() {
            if index > 0 { lines.append(".br") }
            lines += [".ti -4n", synopsis(usage, commandWords: path.count)]
        }
        lines += [".in", ".PP", text(sentence(command.abstract))]
        lines += discussion(command.discussion)
        let parameters = command.parameters.filter { !$0.isHidden }
        let positionals = parameters.filter { !$0.isOption }
        let options = parameters.filter(\.isOption)
        if !positionals.isEmpty {
            lines += [".PP", "Arguments:"] + parameterList(positionals)
        }
        if !options.isEmpty {
            lines += [".PP", "Options:"] + parameterList(options)
        }
        if !command.subcommands.isEmpty {
            lines += [".PP", "Commands:"]
            for subcommand in command.subcommands {
                lines += [".TP", bold(subcommand.name), text(sentence(subcommand.abstract))]
            }
        }
        for subcommand in command.subcommands {
            lines += section(subcommand, path: path + [subcommand.name])
        }
        return lines
    }

    /// One `.TP` entry per parameter: `-o, --output FILE` (names bold, the value italic), then its help.
    static func parameterList(_ parameters: [Parameter]) -> [String] {
        parameters.flatMap { parameter -> [String] in
            let tag: String
            if parameter.isOption {
                let names =
                    parameter.names.filter { !$0.hasPrefix("--") } + parameter.names.filter { $0.hasPrefix("--") }
                tag = names.map(bold).joined(separator: ", ") + (parameter.valueName.map { " " + italic($0) } ?? "")
            } else {
                tag = italic(HelpText.positionalUsage([parameter]).joined(separator: " "))
            }
            return [".TP", tag, text(sentence(parameter.help))]
        }
    }

    /// A discussion as paragraphs: each prose line a paragraph; of the indented lines, a table row (a label, two or
    /// more spaces, its text) an entry of a tagged list, the others (examples to copy) kept as written.
    static func discussion(_ discussion: String) -> [String] {
        guard !discussion.isEmpty else { return [] }
        var lines: [String] = []
        var example: [String] = []
        func endExample() {
            guard !example.isEmpty else { return }
            let indent = example.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            lines +=
                [".PP", ".in +4n", ".EX"] + example.map { escaped(String($0.dropFirst(indent)), leading: true) } + [
                    ".EE", ".in",
                ]
            example = []
        }
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.first == " " {
                if let (label, rest) = tableRow(line) {
                    endExample()
                    lines += [".TP", bold(label), text(rest)]
                } else {
                    example.append(line)
                }
                continue
            }
            endExample()
            if !line.isEmpty { lines += [".PP", text(line)] }
        }
        endExample()
        return lines
    }

    /// `  pin=DDDD   e.g. pin=4821` as (`pin=DDDD`, `e.g. pin=4821`): the label ends at the first run of two or more
    /// spaces after it, as in the help (`HelpText.indented`).
    static func tableRow(_ line: String) -> (String, String)? {
        let body = line.drop { $0 == " " }
        guard let gap = body.firstRange(of: "  ") else { return nil }
        let label = body[..<gap.lowerBound]
        let rest = body[gap.lowerBound...].drop { $0 == " " }
        guard !label.isEmpty, !rest.isEmpty else { return nil }
        return (String(label), String(rest))
    }

    /// A usage line with the command's words and options bold, the values italic, brackets and bars roman.
    static func synopsis(_ line: String, commandWords: Int) -> String {
        var result = ""
        var word = ""
        var position = 0
        func flush() {
            guard !word.isEmpty else { return }
            let option = word.hasPrefix("-") && word.dropFirst().first.map { $0 == "-" || $0.isLowercase } == true
            if word.allSatisfy({ $0 == "." }) {
                result += escaped(word)
            } else if position < commandWords || option || word.first?.isLowercase == true {
                result += bold(word)
            } else {
                result += italic(word)
            }
            word = ""
        }
        for character in line {
            if character == " " {
                flush()
                position += 1
                result += " "
            } else if "[]|()".contains(character) {
                flush()
                result += String(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }

    /// A help sentence as the man page writes it: a capital first letter and a full stop.
    /// A name that keeps its case (`chestd's control socket`) stays as it is.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let keepsCase = text.hasPrefix("chest") || text.hasPrefix("e.g.")
        let capital = first.isLowercase && !keepsCase ? first.uppercased() + text.dropFirst() : text
        return ".:!?".contains(capital.last!) ? capital : capital + "."
    }

    /// Prose as a text line: what stands in backquotes, and an option's name (`--page`), bold.
    static func text(_ line: String) -> String {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        var result =
            parts.count >= 3 && parts.count % 2 == 1
            ? parts.enumerated().map { index, part in index % 2 == 1 ? bold(part) : optionsBold(part) }.joined()
            : optionsBold(line)
        if let first = result.first, first == "." || first == "'" { result = "\\&" + result }
        return result
    }

    /// Escaped prose with each option's name in it (`--page`, `-o`, not `-5`) bold.
    static func optionsBold(_ prose: String) -> String {
        prose.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let lead = word.prefix { "([\"".contains($0) }
            let rest = word.dropFirst(lead.count)
            let name = rest.prefix { $0 == "-" || $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII }
            let isOption =
                name.hasPrefix("--") && name.count > 3 && name.dropFirst(2).first!.isLetter
                || name.count == 2 && name.first == "-" && name.last!.isLetter
            guard isOption, !name.hasSuffix("-") else { return escaped(String(word)) }
            return escaped(String(lead)) + bold(String(name)) + escaped(String(rest.dropFirst(name.count)))
        }.joined(separator: " ")
    }

    static func bold(_ text: String) -> String { "\\fB" + escaped(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escaped(text) + "\\fR" }

    /// `"chest hunt"`, for a macro's argument.
    static func quoted(_ text: String) -> String { "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\"" }

    /// Text roff takes literally: backslashes as `\e`, hyphens as `\-` (a minus: options are typed as written), any
    /// character outside ASCII by its code (`\[u00B0]`), and a line that would start with a control character
    /// (`.`, `'`) guarded by `\&`.
    static func escaped(_ text: String, leading: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if leading, let first = result.first, first == "." || first == "'" { result = "\\&" + result }
        return result
    }
}
